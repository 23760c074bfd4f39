"""Client side of the slots feed (docs/slots-feed-tools.md): the HTTP client a slot bank's
tournament system uses, a simulator of a bank and a folder watcher for CSV drops. It talks to
the controller over HTTP only, so it imports no feature and nothing of controller.http."""
