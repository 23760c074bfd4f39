"""One Socket.IO namespace per audience. Each checks the key's role on connect."""
