"""The pygame-free contract the controller and the displays share: what each side may send and
show (field types, scene catalogue, playlists, views, money format). Imports no pygame."""
