"""The application: commands through the rules into events and views (service), the features a show
is made of, the configs it records.
"""
