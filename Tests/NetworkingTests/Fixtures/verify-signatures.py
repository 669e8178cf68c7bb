#!/usr/bin/env python3
"""A server that checks HTTP Message Signatures (RFC 9421) with PyPI's http-message-signatures,
an implementation independent of the host's: the network tests send signed requests to it.

    verify-signatures.py HMAC_KEY_FILE ED25519_PUBLIC_PEM_FILE

Prints its base URL on the first line, then answers every request with JSON: 200
{"ok": true, "keyid", "covered": [...], "digest": bool} when the signature (and Content-Digest,
for a body) verifies, else 401 {"ok": false, "error"}. The keyid picks the key: "hmac" is
HMAC-SHA256 with the first file's bytes, anything else Ed25519 with the second file's key.
Stops when stdin closes."""
import hashlib
import base64
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests
from http_message_signatures import HTTPMessageVerifier, HTTPSignatureKeyResolver, algorithms

HMAC_KEY = open(sys.argv[1], "rb").read()
ED25519_PUBLIC = open(sys.argv[2], "rb").read()


class Keys(HTTPSignatureKeyResolver):
    def resolve_public_key(self, key_id):
        return HMAC_KEY if key_id == "hmac" else ED25519_PUBLIC

    def resolve_private_key(self, key_id):
        raise NotImplementedError


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        url = f"http://{self.headers['Host']}{self.path}"
        message = requests.Request(self.command, url, headers=dict(self.headers.items()), data=body).prepare()
        input_header = self.headers.get("Signature-Input", "")
        key_id = "hmac" if 'keyid="hmac"' in input_header else "ed25519"
        algorithm = algorithms.HMAC_SHA256 if key_id == "hmac" else algorithms.ED25519
        try:
            verifier = HTTPMessageVerifier(signature_algorithm=algorithm, key_resolver=Keys())
            results = verifier.verify(message)
            digest = False
            if body is not None:
                expected = "sha-256=:" + base64.b64encode(hashlib.sha256(body).digest()).decode() + ":"
                if self.headers.get("Content-Digest") != expected:
                    raise ValueError(f"Content-Digest {self.headers.get('Content-Digest')!r} is not {expected!r}")
                digest = True
            names = [str(component).strip('"') for component in results[0].covered_components]
            covered = [name for name in names if name != "@signature-params"]
            self.answer(200, {"ok": True, "keyid": key_id, "covered": covered, "digest": digest})
        except Exception as error:  # any failure is the test's finding
            self.answer(401, {"ok": False, "error": f"{type(error).__name__}: {error}"})

    do_GET = do_POST = do_PUT = handle_one

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
sys.stdin.read()
server.shutdown()
