# A stand-in for the openai package: records how a snippet calls it, prints that as one JSON line, and
# answers with recognizable results (OUTPUT_TEXT, DELTA, EVENT, ANSWER, one embedding) the snippet prints. Used by python.test.ts; never installed anywhere.
import json


def _record(call, **values):
    print("CALL " + json.dumps({"call": call, **values}))


class _Event:
    def __init__(self, type, delta):
        self.type = type
        self.delta = delta

    def __repr__(self):
        return "EVENT"


class _Item:
    def __init__(self, index, embedding):
        self.index = index
        self.embedding = embedding


class _Answer:
    """What every call answers: text, embeddings and events the snippet prints, each recognizable."""

    output_text = "OUTPUT_TEXT"
    data = [_Item(0, [0.5, 1.5, 2.5, 3.5, 4.5])]

    def __iter__(self):
        return iter([_Event("response.output_text.delta", "DELTA"), _Event("response.completed", "NOPE")])

    def __repr__(self):
        return "ANSWER"


class _Method:
    def __init__(self, client, name):
        self._client = client
        self._name = name

    def create(self, **kwargs):
        _record(self._name + ".create", client=self._client._info, kwargs=kwargs)
        return _Answer()


class Stream:
    def __class_getitem__(cls, item):
        return cls


class OpenAI:
    def __init__(self, base_url=None, api_key=None, default_headers=None):
        self._info = {"base_url": base_url, "api_key": api_key, "default_headers": default_headers}
        self.responses = _Method(self, "responses")
        self.embeddings = _Method(self, "embeddings")

    def post(self, path, body=None, cast_to=None, stream=False, stream_cls=None):
        _record("post", client=self._info, path=path, body=body, stream=stream, stream_cls=stream_cls is Stream)
        return _Answer()
