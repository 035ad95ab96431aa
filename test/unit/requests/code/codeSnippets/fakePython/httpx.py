# A stand-in for httpx (see _http.py).
from _http import record


def post(url, **kwargs):
    return record("httpx.post", url, **kwargs)


def stream(method, url, **kwargs):
    return record("httpx.stream " + method, url, **kwargs)
