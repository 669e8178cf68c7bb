#!/usr/bin/env python3
"""The part of wptserve that the vendored fetch/ tests talk to, for scripts/wpt: their `.py`
handlers and their static files, on 127.0.0.1, with the standard library only.

web-platform-tests are served by wptserve, whose `.py` handlers answer what a test fetches
(`../resources/inspect-headers.py?headers=Accept`). wptserve itself is not vendored (it is a
package of its own, with TLS and HTTP/2 this runner does not use); each handler here answers as
its `.py` does, and that `.py` is vendored beside the tests (Tests/WebPlatformTests/wpt/...), so
that a re-vendoring whose diff touches one shows which handler here to look at again. Any other
file under the root is served as wptserve's file handler serves it: Content-Type by extension,
the headers of a `NAME.headers` file beside it, `?pipe=header(NAME,VALUE)` and `status(CODE)`;
`.asis` files are sent as the whole response. A `.py` without a handler here answers 501, saying
so.

Usage:
  wpt-server.py [--root WPT] [--port N] [--until-stdin-closes] [-v]

It listens on two ports of 127.0.0.1 (wptserve's ports[http][0] and [1]: tests use the second as
another origin), free ones unless --port gives the first, prints {"ports": [P0, P1]} as one line
on stdout once both accept connections, and serves until it is killed (or, with
--until-stdin-closes, as scripts/wpt starts it, until its standard input ends: a runner that dies
leaves no server behind). It never listens beyond the loopback address and never serves a file
outside --root.
"""
import argparse, base64, email.utils, http.server, json, os, re, socketserver, sys, threading, time
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wpt")
HOST = "127.0.0.1"
# wptserve's content types for the extensions these tests read.
CONTENT_TYPES = {"txt": "text/plain", "json": "application/json", "html": "text/html", "htm": "text/html",
                 "js": "text/javascript", "css": "text/css", "xml": "application/xml", "png": "image/png"}


def latin1(text):
    """An isomorphic string (one char per byte, as wptserve's isomorphic_decode makes them) as bytes."""
    return text.encode("latin-1") if isinstance(text, str) else text


# --- Requests and replies --------------------------------------------------------------------

class Query:
    """A request's query as wptserve's request.GET reads it: names and values decoded from
    percent-encoding to isomorphic strings, in order, a name possibly more than once."""

    def __init__(self, query):
        self.pairs = parse_qsl(query, keep_blank_values=True, encoding="latin-1")

    def __contains__(self, name):
        return any(key == name for key, _ in self.pairs)

    def first(self, name, default=None):
        return next((value for key, value in self.pairs if key == name), default)

    def firsts(self):
        """Each name once with its first value, as redirect.py's url_parameters collects them."""
        result = {}
        for key, value in self.pairs:
            result.setdefault(key, value)
        return result


class Request:
    def __init__(self, handler, body):
        self.method = handler.command
        parts = urlsplit(handler.path)
        self.path = unquote(parts.path)
        self.GET = Query(parts.query)
        self.headers = handler.headers  # case-insensitive get(); items() as sent, in order
        self.body = body
        self.client_address = handler.client_address
        self.port = handler.server.server_address[1]
        self.server = handler.server

    @property
    def directory(self):
        """The request's folder (`/fetch/api/resources/`), where stash-put.py keeps its values."""
        return self.path.rsplit("/", 1)[0] + "/"

    def form(self):
        """The body's fields when it is a form (request.POST), else nothing."""
        if "application/x-www-form-urlencoded" in (self.headers.get("Content-Type") or ""):
            return Query(self.body.decode("latin-1"))
        return Query("")


class Reply:
    """What a handler returns, as wptserve's (status, headers, content): the body is sent with
    a Content-Length, unless the handler set one itself."""

    def __init__(self, status=200, headers=(), body=b"", reason=None):
        self.status, self.reason = status, reason
        self.headers = list(headers)
        self.body = latin1(body) if body is not None else b""


class Writer:
    """Writes a response on the connection as wptserve's ResponseWriter does: the status line
    with the request's HTTP version, the handler's headers, then Server and Date, and a
    Content-Length when the body is known; without one, the body ends when the connection does."""

    def __init__(self, handler):
        self.handler = handler

    def head(self, status, headers, reason=None, length=None):
        if reason is None:
            reason = http.server.BaseHTTPRequestHandler.responses.get(status, ("",))[0]
        lines = [b"%s %d %s" % (latin1(self.handler.request_version), status, latin1(reason))]
        seen = set()
        for name, value in headers:
            seen.add(name.lower())
            lines.append(latin1(name) + b": " + latin1(str(value)))
        if "server" not in seen:
            lines.append(b"Server: " + latin1(self.handler.version_string()))
        if "date" not in seen:
            lines.append(b"Date: " + latin1(email.utils.formatdate(usegmt=True)))
        if length is not None and "content-length" not in seen:
            lines.append(b"Content-Length: %d" % length)
            seen.add("content-length")
        if "content-length" not in seen:
            self.handler.close_connection = True
        self.write(b"\r\n".join(lines) + b"\r\n\r\n")

    def write(self, data):
        """False once the client is gone, as wptserve's writer reports it."""
        try:
            self.handler.wfile.write(latin1(data))
            self.handler.wfile.flush()
            return True
        except OSError:
            self.handler.close_connection = True
            return False

    def reply(self, request, reply):
        self.head(reply.status, reply.headers, reply.reason, len(reply.body))
        if request.method != "HEAD":
            self.write(reply.body)


class Stash:
    """wptserve's stash: values a handler keeps for a later request, by (path, key); take()
    removes what it returns."""

    def __init__(self):
        self.lock = threading.Lock()
        self.data = {}

    def put(self, key, value, path):
        with self.lock:
            self.data[(path, key)] = value

    def take(self, key, path):
        with self.lock:
            return self.data.pop((path, key), None)


# --- Handlers: each answers as the .py of the same path does ---------------------------------

HANDLERS = {}


def handler(*paths):
    def register(function):
        for path in paths:
            HANDLERS[path] = function
        return function
    return register


@handler("/fetch/api/resources/inspect-headers.py")
def inspect_headers(request, writer):
    headers = []
    checked = request.GET.first("headers", "").split("|") if "headers" in request.GET else []
    for name in checked:
        if name in request.headers:
            headers.append(("x-request-" + name, request.headers.get(name, "")))
    if "cors" in request.GET:
        headers.append(("Access-Control-Allow-Origin", request.headers.get("Origin", "*")))
        headers.append(("Access-Control-Allow-Credentials", "true"))
        headers.append(("Access-Control-Allow-Methods", "GET, POST, HEAD"))
        headers.append(("Access-Control-Expose-Headers", ", ".join("x-request-" + name for name in checked)))
        if "allow_headers" in request.GET:
            headers.append(("Access-Control-Allow-Headers", request.GET.first("allow_headers")))
        else:
            headers.append(("Access-Control-Allow-Headers", ", ".join(request.headers.keys())))
    headers.append(("content-type", "text/plain"))
    return Reply(200, headers, b"")


@handler("/fetch/api/resources/echo-content.py")
def echo_content(request, writer):
    return Reply(200, [("X-Request-Method", request.method),
                       ("X-Request-Content-Length", request.headers.get("Content-Length", "NO")),
                       ("X-Request-Content-Type", request.headers.get("Content-Type", "NO")),
                       ("Content-Type", "text/plain")], request.body)


@handler("/fetch/api/resources/status.py", "/xhr/resources/status.py")
def status(request, writer):
    return Reply(int(request.GET.first("code", "200")),
                 [("Content-Type", request.GET.first("type", "")), ("X-Request-Method", request.method)],
                 request.GET.first("content", ""), reason=request.GET.first("text", "OMG"))


@handler("/fetch/api/resources/redirect.py")
def redirect(request, writer):
    stashed = {"count": 0, "preflight": "0"}
    status = 302
    headers = [("Content-Type", "text/plain"), ("Cache-Control", "no-cache"), ("Pragma", "no-cache")]
    if "Origin" in request.headers:
        headers.append(("Access-Control-Allow-Origin", request.headers.get("Origin", "")))
        headers.append(("Access-Control-Allow-Credentials", "true"))
    else:
        headers.append(("Access-Control-Allow-Origin", "*"))
    token = request.GET.first("token")
    if token is not None:
        stashed = request.server.stash.take(token, request.path) or stashed
    if request.method == "OPTIONS":
        if "allow_headers" in request.GET:
            headers.append(("Access-Control-Allow-Headers", request.GET.first("allow_headers")))
        stashed["preflight"] = "1"
        if "redirect_preflight" not in request.GET:  # a preflight is not redirected
            if token is not None:
                request.server.stash.put(token, stashed, request.path)
            return Reply(200, headers, b"")
    if "redirect_status" in request.GET:
        status = int(request.GET.first("redirect_status"))
    elif "redirect_status" in request.form():
        status = int(request.form().first("redirect_status"))
    stashed["count"] += 1
    if "location" in request.GET:
        url = request.GET.first("location")
        if "simple" not in request.GET and urlsplit(url).scheme in ("", "http", "https"):
            # The redirect keeps the query, and the count makes each hop of a loop a new URL.
            url += "&" if "?" in url else "?"
            url += urlencode(request.GET.firsts())
            url += "&count=" + str(stashed["count"])
        headers.append(("Location", url))
    if "redirect_referrerpolicy" in request.GET:
        headers.append(("Referrer-Policy", request.GET.first("redirect_referrerpolicy")))
    if "delay" in request.GET:
        time.sleep(float(request.GET.first("delay", "0")) / 1e3)
    if token is not None:
        request.server.stash.put(token, stashed, request.path)
        if "max_count" in request.GET and stashed["count"] > int(request.GET.first("max_count")):
            return Reply(200, [], str(stashed["count"] - 1))  # the last hop is not a redirect
    return Reply(status, headers, b"")


@handler("/fetch/api/resources/trickle.py")
def trickle(request, writer):
    delay = float(request.GET.first("ms", "500")) / 1e3
    count = int(request.GET.first("count", "50"))
    time.sleep(delay)
    writer.head(200, [] if "notype" in request.GET else [("Content-type", "text/plain")])
    time.sleep(delay)
    for _ in range(count):
        if not writer.write(b"TEST_TRICKLE\n"):
            return None
        time.sleep(delay)
    return None


@handler("/fetch/api/resources/cache.py")
def conditional_cache(request, writer):
    if request.headers.get("If-None-Match") == '"123abc"':
        return Reply(304, [("X-HTTP-STATUS", "304")], b"", reason="Not Modified")
    return Reply(200, [("ETag", '"123abc"'), ("Content-Type", "text/plain")], b"lorem ipsum dolor sit amet", reason="OK")


@handler("/fetch/api/request/resources/cache.py")
def request_cache(request, writer):
    """Records the validators of each request for a token, and answers with the validators and
    freshness the query asks for; `querystate` returns what was recorded."""
    token = request.GET.first("token")
    if "querystate" in request.GET:
        return Reply(200, [("Content-Type", "text/plain")], json.dumps(request.server.stash.take(token, request.path)))
    content = request.GET.first("content")
    tag = request.GET.first("tag")
    date = request.GET.first("date")
    expires = request.GET.first("expires")
    vary = request.GET.first("vary")
    cache_control = request.GET.first("cache_control")
    location = request.GET.first("redirect")
    inm = request.headers.get("If-None-Match")
    ims = request.headers.get("If-Modified-Since")
    if tag:
        tag = '"%s"' % tag
    state = request.server.stash.take(token, request.path) or []
    seen = {}
    if "ignore" not in request.GET:
        for name in ("If-None-Match", "If-Modified-Since", "Pragma", "Cache-Control"):
            if request.headers.get(name):
                seen[name] = request.headers.get(name)
    state.append(seen)
    request.server.stash.put(token, state, request.path)
    headers = []
    if tag:
        headers.append(("ETag", tag))
    elif date:
        headers.append(("Last-Modified", date))
    if expires:
        headers.append(("Expires", expires))
    if vary:
        headers.append(("Vary", vary))
    if cache_control:
        headers.append(("Cache-Control", cache_control))
    headers.append(("Access-Control-Allow-Origin", "*"))  # the only-if-cached redirect tests need CORS
    if location:
        return Reply(302, headers + [("Location", location)], b"", reason="Redirect")
    if (inm is not None and inm == tag) or (ims is not None and ims == date):
        return Reply(304, headers, b"", reason="Not Modified")
    return Reply(200, headers + [("Content-Type", "text/plain")], content or b"", reason="OK")


@handler("/fetch/api/resources/stash-put.py")
def stash_put(request, writer):
    if request.method == "OPTIONS":  # a CORS preflight
        return Reply(200, [("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Methods", "*"),
                           ("Access-Control-Allow-Headers", "*")], "done")
    headers = []
    if "disallow_cross_origin" not in request.GET:
        headers.append(("Access-Control-Allow-Origin", "*"))
    elif request.GET.first("mode") != "no-cors":
        frame_origin = request.GET.first("frame_origin", "")
        if frame_origin != "http://%s" % request.headers.get("Host", ""):
            return Reply(200, headers, "not stashing for cors request")
    request.server.stash.put(request.GET.first("key"), request.GET.first("value"), request.directory)
    return Reply(200, headers, "done")


@handler("/fetch/api/resources/stash-take.py")
def stash_take(request, writer):
    value = json.dumps(request.server.stash.take(request.GET.first("key"), request.directory))
    return Reply(200, [("Access-Control-Allow-Origin", "*"), ("Content-Type", "application/json"),
                       ("Content-Length", len(value))], value)


@handler("/fetch/api/resources/infinite-slow-response.py")
def infinite_slow_response(request, writer):
    """A body that never ends: a dot every 10 ms until the client goes away or the abortKey is
    stashed; stateKey's value says whether the response is still open."""
    state_key = request.GET.first("stateKey", "")
    abort_key = request.GET.first("abortKey", "")
    stash, directory = request.server.stash, request.directory
    if state_key:
        stash.take(state_key, directory)
        stash.put(state_key, "open", directory)
    writer.head(200, [("Content-type", "text/plain")])
    writer.write(b"." * 2048)  # "so browsers realise it's there", as the .py says
    while writer.write(b"."):
        if abort_key and stash.take(abort_key, directory):
            break
        time.sleep(0.01)
    if state_key:
        stash.take(state_key, directory)
        stash.put(state_key, "closed", directory)
    return None


@handler("/fetch/api/resources/bad-chunk-encoding.py")
def bad_chunk_encoding(request, writer):
    delay = float(request.GET.first("ms", "1000")) / 1e3
    count = int(request.GET.first("count", "50"))
    time.sleep(delay)
    writer.head(200, [("Transfer-Encoding", "chunked")])
    time.sleep(delay)
    for _ in range(count):
        writer.write(b"a\r\nTEST_CHUNK\r\n")
        time.sleep(delay)
    writer.write(b"garbage")
    return None


@handler("/fetch/api/resources/authentication.py")
def authentication(request, writer):
    user = password = None
    scheme, _, credentials = (request.headers.get("Authorization") or "").partition(" ")
    if scheme.lower() == "basic":
        try:
            user, _, password = base64.b64decode(credentials).decode("latin-1").partition(":")
        except ValueError:
            pass
    if user == "user" and password == "password":
        return Reply(200, [], "Authentication done")
    realm = request.GET.first("realm", "test")
    return Reply(401, [("WWW-Authenticate", 'Basic realm="%s"' % realm)],
                 "Please login with credentials 'user' and 'password'", reason="Unauthorized")


@handler("/xhr/resources/echo-headers.py")
def echo_headers(request, writer):
    # str(request.raw_headers): the request's head as the server parsed it, a line per field.
    content = "".join("%s: %s\n" % (name, value) for name, value in request.headers.items()) + "\n"
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                 % len(latin1(content)) + latin1(content))
    writer.handler.close_connection = True
    return None


@handler("/xhr/resources/parse-headers.py")
def parse_headers(request, writer):
    headers = []
    if "my-custom-header" in request.GET:
        headers.append(("My-Custom-Header", request.GET.first("my-custom-header")))
    return Reply(200, headers, b"")


@handler("/fetch/connection-pool/resources/network-partition-key.py")
def network_partition_key(request, writer):
    """Counts a token's requests and connections (a connection is a client address and port),
    and fails the token when one connection carries two partition ids."""
    headers = [("Cache-Control", "no-store")]
    dispatch, uuid, partition_id = (request.GET.first(n) for n in ("dispatch", "uuid", "partition_id"))

    def simple(status, reason, body):
        return Reply(int(status), headers + [("Content-Type", "text/plain")], body, reason=reason)

    if not uuid or not dispatch or not partition_id:
        return simple(404, "Not found", "Invalid query parameters")
    stash = request.server.stash
    failed, request_count, connection_count = False, 0, 0
    if request.GET.first("nocheck_partition") != "True":
        with stash.lock:
            address = "%s|%s" % (request.client_address, request.port)
            state = stash.data.pop((request.path, uuid), None) or {"test_failed": False, "request_count": 0, "connection_count": 0}
            state["request_count"] += 1
            request_count = state["request_count"]
            if address in state:
                if state[address] != partition_id:
                    state["test_failed"] = True
            else:
                state["connection_count"] += 1
                connection_count = state["connection_count"]
            state[address] = partition_id
            failed = state["test_failed"]
            stash.data[(request.path, uuid)] = state
    origin = request.headers.get("Origin")
    if origin:
        headers += [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true")]
    if request.method == "OPTIONS":
        return Reply(200, headers + [("Access-Control-Allow-Methods", "GET"),
                                     ("Access-Control-Allow-Headers", "header-to-force-cors"),
                                     ("Access-Control-Max-Age", "86400")], "Preflight request", reason="OK")
    if dispatch == "check_partition":
        code = request.GET.first("status", "200")
        if failed:
            return simple(code, "OK", "Multiple partition IDs used on a socket")
        body = "ok"
        if request.GET.first("addcounter"):
            body += ". Request was sent %d times. %d connections were created." % (request_count, connection_count)
        return simple(code, "OK", body)
    if dispatch == "clean_up":
        with stash.lock:
            stash.data.pop((request.path, uuid), None)
        return simple(200, "OK", "Test failed, but cleanup completed." if failed else "cleanup complete")
    # dispatch=fetch_file serves documents to frames, which no test here has.
    return simple(404, "Not Found", "Unrecognized dispatch parameter: " + dispatch)


# --- Static files ----------------------------------------------------------------------------

def pipe_steps(pipe):
    """`header(NAME,VALUE[,True])|status(CODE)` as (function, [arguments]) pairs."""
    steps = []
    for match in re.finditer(r"(\w+)(?:\(((?:\\.|[^)])*)\))?", pipe):
        arguments = [re.sub(r"\\(.)", r"\1", a) for a in re.split(r"(?<!\\),", match.group(2))] if match.group(2) else []
        steps.append((match.group(1), arguments))
    return steps


# The page wptserve makes for a test file (`x.any.js` is the page `x.any.html`), which a test
# may fetch as its own location.
TEST_PAGE = """<!doctype html>
<meta charset=utf-8>
<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
<div id=log></div>
<script src="%s"></script>
"""


def static_file(request, writer, root):
    relative = request.path.lstrip("/")
    path = os.path.realpath(os.path.join(root, relative))
    if ".." in relative.split("/") or not path.startswith(os.path.realpath(root) + os.sep):
        return error(404)
    test = re.sub(r"\.(any|window|worker)(\.worker)?\.html$", r".\1.js", path)
    if not os.path.isfile(path) and test != path and os.path.isfile(test):
        return Reply(200, [("Content-Type", "text/html")], TEST_PAGE % ("/" + os.path.relpath(test, root)))
    if not os.path.isfile(path):
        return error(404)
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".asis"):
        # The file is the whole response. Its lines end in LF and its head is left for the
        # connection's close to end; node's HTTP parser takes neither, so they are sent as HTTP
        # writes them (CRLF, and the empty line that ends the head), as undici's runner does.
        writer.write(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") + b"\r\n")
        writer.handler.close_connection = True
        return None
    extension = os.path.splitext(path)[1].lstrip(".")
    headers = read_headers(os.path.join(os.path.dirname(path), "__dir__")) + read_headers(path)
    if not any(name.lower() == "content-type" for name, _ in headers):
        headers.insert(0, ("Content-Type", CONTENT_TYPES.get(extension, "application/octet-stream")))
    status = 200
    for name, arguments in pipe_steps(request.GET.first("pipe", "")):
        if name == "header" and len(arguments) >= 2:
            if len(arguments) < 3 or arguments[2].lower() != "true":
                headers = [(n, v) for n, v in headers if n.lower() != arguments[0].lower()]
            headers.append((arguments[0], arguments[1]))
        elif name == "status" and arguments:
            status = int(arguments[0])
        else:
            return error(500, "scripts/wpt's server has no pipe %s" % name)
    return Reply(status, headers, data)


def read_headers(path):
    try:
        with open(path + ".headers", encoding="latin-1") as f:
            return [tuple(part.strip() for part in line.split(":", 1)) for line in f.read().splitlines() if ":" in line]
    except OSError:
        return []


def error(code, message=""):
    """wptserve's set_error: the status, and the error as JSON."""
    body = json.dumps({"error": {"code": code, "message": message}})
    return Reply(code, [("Content-Type", "application/json"), ("Content-Length", len(body))], body)


# --- The server ------------------------------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as wptserve; a response without a length closes
    verbose = False

    def handle_one_request(self):
        """BaseHTTPRequestHandler's, for every method (tests send PUT, DELETE, made-up ones)."""
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if not self.raw_requestline or len(self.raw_requestline) > 65536:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            self.dispatch()
        except OSError:
            self.close_connection = True

    def read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def dispatch(self):
        request = Request(self, self.read_body())
        writer = Writer(self)
        function = HANDLERS.get(request.path)
        try:
            if function is not None:
                reply = function(request, writer)
            elif request.path.endswith(".py"):
                reply = error(501, "scripts/wpt's server (Tests/WebPlatformTests/wpt-server.py) has no handler for %s"
                              % request.path)
            else:
                reply = static_file(request, writer, self.server.root)
        except Exception as exception:  # a handler's bug is the test's 500, as in wptserve
            reply = error(500, "%s: %s" % (type(exception).__name__, exception))
        if reply is not None:
            writer.reply(request, reply)

    def log_message(self, format, *args):
        if self.verbose:
            sys.stderr.write("wpt-server: %s %s\n" % (self.address_string(), format % args))


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True  # a response that never ends must not keep the server from exiting
    request_queue_size = 128  # many tests at once
    allow_reuse_address = True

    def __init__(self, port, root, stash):
        super().__init__((HOST, port), Handler)
        self.root, self.stash = root, stash


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=ROOT, help="the folder served at / (default: Tests/WebPlatformTests/wpt)")
    parser.add_argument("--port", type=int, default=0, help="the first port (default: a free one)")
    parser.add_argument("--until-stdin-closes", action="store_true", help="stop when standard input ends")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per request on stderr")
    args = parser.parse_args()
    Handler.verbose = args.verbose
    stash = Stash()
    servers = [Server(args.port, args.root, stash), Server(0, args.root, stash)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"ports": [server.server_address[1] for server in servers]}), flush=True)
    try:
        if args.until_stdin_closes:
            sys.stdin.buffer.read()
        else:
            threading.Event().wait()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
