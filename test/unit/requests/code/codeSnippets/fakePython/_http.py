# Shared by the requests and httpx stand-ins: record the call as one JSON line; the answer says when its status
# is checked and gives one JSON object or one line, for the snippet to print.
import json


class Answer:
    def raise_for_status(self):
        print("STATUS_CHECKED")

    def json(self):
        return {"answer": 1}

    def iter_lines(self, decode_unicode=False):
        print("LINES decode_unicode=" + str(decode_unicode))
        return iter(["LINE1"])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def record(call, url, **kwargs):
    print("CALL " + json.dumps({"call": call, "url": url, **kwargs}))
    return Answer()
