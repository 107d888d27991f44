#!/usr/bin/env python3
"""A raw PMIx peer that claims an identity it does not have, for the second-user test.

Sends one handshake (OpenPMIx's wire format: docs/notes/transport.md and the wire notes)
over TCP or over an abstract Unix socket, and prints what the server answered:
"refused STATUS" (a non-zero status), "closed" (the connection ended without an answer),
or "accepted" (status 0). Exits 0 in every case; the caller judges.

usage: rawpeer.py tcp HOST:PORT | unix NAME
                 tool-root | tool-none | tool-named-root NSPACE RANK | client NSPACE RANK
  tool-root    a tool asking for an id, claiming uid 0 / gid 0 (native credential and body)
  tool-none    a tool asking for an id with psec "none" (claims nothing)
  tool-named-root  a tool with an identity of its own (flag 5), claiming uid 0 / gid 0
  client       a client claiming to be NSPACE:RANK with uid 0 / gid 0
"""
import socket
import struct
import sys


def cstr(s):
    return s.encode() + b"\0"


def hello(kind, psec, uid, gid, nspace=None, rank=0):
    cred = struct.pack("=II", uid, gid) if psec == "native" else b""
    b = cstr(psec) + struct.pack(">I", len(cred)) + cred + bytes([kind])
    if kind != 0:  # tools and launchers state their ids in the body
        b += struct.pack(">II", uid, gid)
    if nspace is not None:
        b += cstr(nspace) + struct.pack(">I", rank)
    b += cstr("4.2.2") + cstr("v41") + bytes([1]) + cstr("hash")
    return struct.pack(">iI", -1, 0xFFFFFFFF) + struct.pack("=I", len(b)) + b"\0" * 4 + b


def main():
    how, where, what = sys.argv[1], sys.argv[2], sys.argv[3]
    if how == "tcp":
        host, port = where.rsplit(":", 1)
        s = socket.create_connection((host, int(port)), timeout=15)
    else:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(15)
        s.connect("\0" + where)
    if what == "tool-root":
        msg = hello(3, "native", 0, 0)
    elif what == "tool-none":
        msg = hello(3, "none", 0, 0)
    elif what == "tool-named-root":
        msg = hello(5, "native", 0, 0, sys.argv[4], int(sys.argv[5]))
    else:
        msg = hello(0, "native", 0, 0, sys.argv[4], int(sys.argv[5]))
    s.sendall(msg)
    try:
        st = s.recv(4)
    except (socket.timeout, ConnectionResetError):
        st = b""
    if len(st) < 4:
        print("closed")
    else:
        (status,) = struct.unpack(">i", st)
        print("accepted" if status == 0 else f"refused {status}")


if __name__ == "__main__":
    main()
