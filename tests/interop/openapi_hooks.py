"""Schemathesis hooks for tests/interop/openapi.sh: every request takes the
next of several API keys (KONTOR_KEYS, comma-separated), so the per-key rate
budget of 240 requests is not what the run tests."""

import itertools
import os
import threading

import schemathesis

_KEYS = itertools.cycle(os.environ["KONTOR_KEYS"].split(","))
_LOCK = threading.Lock()


@schemathesis.auth(refresh_interval=None, retry_on=[])
class RotatingKey:
    """A fresh key of the rotation for each request (no caching)."""

    def get(self, case, context):
        with _LOCK:
            return next(_KEYS)

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
