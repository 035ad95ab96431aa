# A stand-in for requests (see _http.py).
from _http import record


def post(url, **kwargs):
    return record("requests.post", url, **kwargs)
