"""The server's messages, each direction a closed set of typed messages in one module.

- :mod:`.client`: what a browser (or ``odin join``) sends over its WebSocket, parsed
  strictly; anything else is refused ``malformed`` there and nowhere else;
- :mod:`.server`: what a connection is sent, encoded there (an update is spliced from
  JSON encoded once and shared by every connection of a table);
- :mod:`.process`: what server processes tell each other: the bus's messages and the
  router's commands to a table's owner with their answers.

Standard library only. The JSON on every wire is ``docs/protocol.md``'s (clients) and
``docs/server.md``'s (processes): changing a message here changes it there.
"""
