#!/usr/bin/env python3
"""Send exactly COUNT UDP datagrams of PAYLOAD bytes to HOST:PORT, paced at RATE per second
(0 = as fast as the socket takes them), then print how many were sent. Bounded in count and
time: the end-to-end test compares watch's packet counts with this number."""
import socket
import sys
import time

host, port, count, payload, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
data = b"\x5a" * payload
t0 = time.monotonic()
sent = 0
while sent < count:
    try:
        s.sendto(data, (host, port))
        sent += 1
    except OSError:
        time.sleep(0.001)
        continue
    if rate > 0:
        ahead = t0 + sent / rate - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
    if time.monotonic() - t0 > 120:
        break
print(sent)
