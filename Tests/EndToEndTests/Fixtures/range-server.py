#!/usr/bin/env python3
"""A Pwned Passwords range API on loopback, for the online breach tests.

Usage: range-server.py PORT_FILE LOG_FILE SCRIPT_FILE
SCRIPT_FILE is JSON: {"PREFIX": [answer, ...]}; each request for PREFIX
takes the next answer (the last one repeats). An answer is
{"status": 200, "body": "...", "headers": {...}, "delay": seconds}.
Every request is logged as one JSON line: method, path, Add-Padding, the
request's Content-Length (none is expected), the client port and the time.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port_file, log_file, script_file = sys.argv[1:4]
with open(script_file) as f:
    script = json.load(f)
served = {}
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        prefix = self.path.rsplit("/", 1)[-1]
        with lock:
            with open(log_file, "a") as log:
                log.write(json.dumps({"method": "GET", "path": self.path,
                                      "padding": self.headers.get("Add-Padding"),
                                      "length": self.headers.get("Content-Length"),
                                      "client": self.client_address[1], "time": time.time()}) + "\n")
            answers = script.get(prefix, [{"status": 200, "body": ""}])
            index = served.get(prefix, 0)
            served[prefix] = index + 1
            answer = answers[min(index, len(answers) - 1)]
        if answer.get("delay"):
            time.sleep(answer["delay"])
        body = answer.get("body", "").encode()
        try:
            self.send_response(answer.get("status", 200))
            for name, value in answer.get("headers", {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
