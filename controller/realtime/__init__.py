"""The Socket.IO side: the server and its direct writes, the hub, the outbox that fans views out,
subscriptions, telemetry, one namespace per audience.
"""
