#!/usr/bin/env python3
"""A stand-in for `hybrid run PROGRAM --inspect-brk=0` that serves a scripted WebKit Inspector
Protocol session on a WebSocket, so that dap_client.py can check the adapter's own side (launch,
the listening line, the WebSocket, the translation of events and positions) apart from the
engine's. PROGRAM is a .js file: it "pauses" at entry, then at the first breakpoint set in it,
then prints `fake app done` and exits 0 at the next resume."""
import base64, hashlib, json, os, secrets, socket, struct, sys

program = os.path.abspath(sys.argv[2])
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(1)
secret = secrets.token_hex(16)
sys.stderr.write(f"Debugger listening on ws://127.0.0.1:{server.getsockname()[1]}/{secret}\n")
sys.stderr.flush()
connection, _ = server.accept()
stream = connection.makefile("rb")

head = b""
while not head.endswith(b"\r\n\r\n"):
    head += stream.read(1)
lines = head.decode().split("\r\n")
if lines[0].split(" ")[1] != "/" + secret:
    connection.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
    sys.exit(3)
key = next(line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("sec-websocket-key:"))
accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
connection.sendall(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n".encode())


def receive():
    first, second = stream.read(2)
    length = second & 127
    if length == 126:
        length = struct.unpack(">H", stream.read(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", stream.read(8))[0]
    mask = stream.read(4)
    data = bytes(b ^ mask[i % 4] for i, b in enumerate(stream.read(length)))
    return first & 15, data


def send(message):
    data = json.dumps(message).encode()
    header = bytes([0x81])
    if len(data) < 126:
        header += bytes([len(data)])
    elif len(data) < 65536:
        header += bytes([126]) + struct.pack(">H", len(data))
    else:
        header += bytes([127]) + struct.pack(">Q", len(data))
    connection.sendall(header + data)


def frame(line, name):
    return {"callFrameId": f"frame:{line}", "functionName": name, "location": {"scriptId": "1", "lineNumber": line, "columnNumber": 2},
            "scopeChain": [{"object": {"type": "object", "objectId": "scope:local"}, "type": "closure"},
                           {"object": {"type": "object", "objectId": "scope:global"}, "type": "global"}],
            "this": {"type": "undefined"}}


runtime_frame = {"callFrameId": "frame:runtime", "functionName": "runMain", "location": {"scriptId": "0", "lineNumber": 9, "columnNumber": 0},
                 "scopeChain": [], "this": {"type": "undefined"}}
breakpoints = {}
state = "waiting"
while True:
    opcode, data = receive()
    if opcode == 8:
        break
    if opcode != 1:
        continue
    message = json.loads(data)
    method, params = message["method"], message.get("params", {})
    result = {}
    after = []
    if method == "Debugger.enable":
        after = [{"method": "Debugger.scriptParsed", "params": {"scriptId": "0", "url": "hybrid:runtime/main.js", "startLine": 0, "endLine": 20}},
                 {"method": "Debugger.scriptParsed", "params": {"scriptId": "1", "url": program, "startLine": 0, "endLine": 20}}]
    elif method == "Debugger.setBreakpointByUrl":
        if params["url"] == program:
            identifier = f"{program}:{params['lineNumber']}:0"
            breakpoints[identifier] = params["lineNumber"]
            result = {"breakpointId": identifier, "locations": [{"scriptId": "1", "lineNumber": params["lineNumber"], "columnNumber": 2}]}
        else:
            result = {"breakpointId": "other", "locations": []}
    elif method == "Runtime.runIfWaitingForDebugger" and state == "waiting":
        state = "entry"
        # As the host makes it: a one-shot breakpoint of its own at the main module's first statement.
        after = [{"method": "Debugger.paused", "params": {"callFrames": [frame(0, ""), runtime_frame], "reason": "Breakpoint", "hitBreakpoints": ["hub-entry"]}}]
    elif method == "Debugger.resume":
        after = [{"method": "Debugger.resumed", "params": {}}]
        if state == "entry" and breakpoints:
            state = "breakpoint"
            identifier, line = next(iter(breakpoints.items()))
            after.append({"method": "Debugger.paused", "params": {"callFrames": [frame(line, "f"), frame(0, ""), runtime_frame],
                                                                  "reason": "Breakpoint", "hitBreakpoints": [identifier]}})
        else:
            state = "ending"
    elif method == "Runtime.getProperties" and params["objectId"] == "scope:local":
        result = {"properties": [{"name": "x", "value": {"type": "number", "value": 5, "description": "5"}},
                                 {"name": "list", "value": {"type": "object", "subtype": "array", "className": "Array", "description": "Array",
                                                            "size": 2, "objectId": "list"}}]}
    elif method == "Runtime.getProperties" and params["objectId"] == "list":
        result = {"properties": [{"name": "0", "value": {"type": "string", "value": "a"}}, {"name": "length", "value": {"type": "number", "value": 1, "description": "1"}}]}
    elif method == "Debugger.evaluateOnCallFrame":
        if params["expression"] == "x * 2 + 32":
            result = {"result": {"type": "number", "value": 42, "description": "42"}}
        else:
            result = {"result": {"type": "object", "subtype": "error", "className": "ReferenceError", "description": "ReferenceError: Can't find variable: nope", "objectId": "e"}, "wasThrown": True}
    send({"id": message["id"], "result": result})
    for event in after:
        send(event)
    if state == "ending":
        print("fake app done", flush=True)
        connection.sendall(bytes([0x88, 2, 3, 232]))
        connection.close()
        sys.exit(0)
