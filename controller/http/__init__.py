"""The aiohttp side: the app factory, middleware, routes and the pages' logins; the technicians'
HTTP/socket client.
"""
