#!/usr/bin/env python3
"""A minimal Redis client for the bench scripts (RESP over a socket, no library to install).

As a command: resp.py PORT COMMAND [ARG...] prints the reply (a bulk string as its text).
As a module: Connection(port) with send(*commands) for pipelining, read() and command(*args).
"""
import socket
import sys


def encode(*args):
    return ("*%d\r\n" % len(args) + "".join("$%d\r\n%s\r\n" % (len(a.encode()), a) for a in args)).encode()


class Connection:
    def __init__(self, port, timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.replies = self.sock.makefile("rb")

    def send(self, *commands):
        """Sends the commands (each a tuple of arguments) together; read() their replies in order."""
        self.sock.sendall(b"".join(encode(*c) for c in commands))

    def read(self):
        line = self.replies.readline()
        kind = line[:1]
        if kind in (b"+", b":"):
            return line[1:-2].decode()
        if kind == b"-":
            raise RuntimeError(line[1:-2].decode())
        if kind == b"$":
            size = int(line[1:])
            return None if size < 0 else self.replies.read(size + 2)[:-2].decode()
        return [self.read() for _ in range(int(line[1:]))]

    def command(self, *args):
        self.send(args)
        return self.read()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    print(Connection(int(sys.argv[1]), timeout=5).command(*sys.argv[2:]))
