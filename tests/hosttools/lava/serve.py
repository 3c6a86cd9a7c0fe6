"""Files served over HTTP on 127.0.0.1 only, on a port the kernel picks:
the images a lab's job fetches by URL, for make test-lava's check of the
lab templates (lava-run --validate asks the URL whether the file is
there)."""
import contextlib
import functools
import http.server
import threading


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory):
    """The base URL ("http://127.0.0.1:PORT/") of directory while the
    with block runs; the server is shut down however it ends."""
    handler = functools.partial(_Quiet, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
