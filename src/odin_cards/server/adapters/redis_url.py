"""The Redis URL of several processes (``--redis-url``): what it may say, and how its
failures and its secret are told.

Redis carries the processes' messages, which they trust: a Redis on a private network,
with a user and a password of its own (``redis://USER:PASSWORD@HOST:6379/0``), over TLS
where the network between the machines is not private (``rediss://``, with the
certificate options below). A URL is checked before start-up, so that a typo is one
clear line rather than a failure at the first connection; the password is never part of a
message (:func:`redacted`), and neither redis-py's errors nor ours repeat it.
"""

from __future__ import annotations

import os
import ssl
from urllib.parse import parse_qs, urlsplit, urlunsplit

from redis.exceptions import AuthenticationError, NoPermissionError, RedisError

SCHEMES = ("redis", "rediss", "unix")

TLS_OPTIONS = {
    "ssl_ca_certs": "a file of the certificate authorities that signed Redis's certificate",
    "ssl_certfile": "this process's client certificate (Redis's tls-auth-clients)",
    "ssl_keyfile": "the client certificate's private key",
    "ssl_cert_reqs": "required (default), optional or none: whether Redis's certificate is checked",
    "ssl_check_hostname": "true (default with required) or false",
}
"""What a ``rediss://`` URL may say in its query, each for redis-py's option of that name."""

FILES = ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile")
CERT_REQS = ("required", "optional", "none")
BOOLEANS = ("true", "false", "yes", "no", "1", "0")


class RedisUrlError(ValueError):
    """A Redis URL that cannot work, said in one line (never with its password)."""


def check_redis_url(url: str) -> None:
    """Raise :class:`RedisUrlError` for a URL that cannot work: another scheme, a query
    option that is not one of :data:`TLS_OPTIONS` (or one on a URL without TLS), a value
    that is not one of the option's, a certificate file that cannot be read."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise RedisUrlError("--redis-url is redis://HOST:PORT/DB (or rediss://, unix://)")
    try:
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise RedisUrlError(
            f"--redis-url has a port that is not a number: {redacted(url)}"
        ) from None
    for name, values in parse_qs(parts.query, keep_blank_values=True).items():
        if name not in TLS_OPTIONS:
            known = ", ".join(TLS_OPTIONS)
            raise RedisUrlError(f"--redis-url: unknown option {name!r} (rediss:// takes {known})")
        if parts.scheme != "rediss":
            raise RedisUrlError(f"--redis-url: {name} needs TLS (a rediss:// URL)")
        value = values[-1]
        if name in FILES and not os.access(value, os.R_OK):
            raise RedisUrlError(f"--redis-url: {name} {value!r} is not a readable file")
        if name == "ssl_cert_reqs" and value not in CERT_REQS:
            raise RedisUrlError(f"--redis-url: ssl_cert_reqs is one of {', '.join(CERT_REQS)}")
        if name == "ssl_check_hostname" and value.lower() not in BOOLEANS:
            raise RedisUrlError("--redis-url: ssl_check_hostname is true or false")


def redacted(url: str) -> str:
    """``url`` with its password, if any, replaced by ``***`` (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def explain(error: BaseException, url: str) -> str:
    """One line for an error reaching Redis at ``url``: wrong credentials, a user whose
    ACL lacks a command, a failed TLS handshake, or no Redis at all. redis-py's own texts
    name the host, never the password."""
    where = redacted(url)
    if isinstance(error, AuthenticationError) or "WRONGPASS" in str(error):
        return (
            f"Redis at {where} refused the user name or password of --redis-url "
            f"({error}); see docs/deploy.md, Redis"
        )
    if isinstance(error, NoPermissionError):
        return (
            f"the Redis user of {where} may not do what odin serve needs ({error}); "
            "see docs/deploy.md, Redis"
        )
    if isinstance(error, ssl.SSLError) or isinstance(error.__cause__, ssl.SSLError):
        return f"the TLS handshake with Redis at {where} failed ({error})"
    if isinstance(error, RedisError | OSError | TimeoutError):
        return f"Redis cannot be reached at {where}: {error}"
    return f"Redis at {where}: {type(error).__name__}: {error}"


__all__ = ["TLS_OPTIONS", "RedisUrlError", "check_redis_url", "explain", "redacted"]
