"""The Redis URL of several processes (``--redis-url``): TLS options (``rediss://``) and
a user with a password are accepted, a URL that cannot work is one line before start-up,
and no message shows the password. (Redis itself with a user and a password:
tests/cluster/test_cluster_redis_auth.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from odin_cards.server.adapters.redis_url import RedisUrlError, check_redis_url, redacted


@pytest.mark.parametrize(
    "url",
    [
        "rediss://u:p@10.0.0.11:6380/0",
        "rediss://10.0.0.11:6380/0?ssl_cert_reqs=none",
        "rediss://10.0.0.11:6380/0?ssl_cert_reqs=required&ssl_check_hostname=false",
        "redis://10.0.0.11:6379/0",
        "unix:///run/redis/redis.sock",
    ],
)
def test_a_redis_url_with_tls_options_is_accepted(url: str) -> None:
    check_redis_url(url)


def test_the_certificate_files_of_a_tls_url_must_be_readable(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    check_redis_url(f"rediss://10.0.0.11:6380/0?ssl_ca_certs={ca}")
    with pytest.raises(RedisUrlError, match="is not a readable file"):
        check_redis_url(f"rediss://10.0.0.11:6380/0?ssl_ca_certs={tmp_path / 'none.pem'}")


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://10.0.0.11:6379/0", "redis://HOST:PORT/DB"),
        ("redis://10.0.0.11:6379/0?ssl_cert_reqs=none", "needs TLS"),
        ("rediss://10.0.0.11:6380/0?sslcert=x", "unknown option 'sslcert'"),
        ("rediss://10.0.0.11:6380/0?ssl_cert_reqs=maybe", "ssl_cert_reqs is one of"),
        ("rediss://10.0.0.11:6380/0?ssl_check_hostname=perhaps", "true or false"),
        ("redis://u:secret@10.0.0.11:port/0", "not a number: redis://u:***@"),
    ],
)
def test_a_redis_url_that_cannot_work_is_refused_in_one_line(url: str, said: str) -> None:
    with pytest.raises(RedisUrlError, match="--redis-url") as refused:
        check_redis_url(url)
    assert said in str(refused.value)
    assert "secret" not in str(refused.value)


def test_a_password_is_never_shown() -> None:
    assert redacted("redis://odin:s3cret@10.0.0.11:6379/0") == "redis://odin:***@10.0.0.11:6379/0"
    assert redacted("rediss://:s3cret@h:6380/0?ssl_cert_reqs=none") == (
        "rediss://:***@h:6380/0?ssl_cert_reqs=none"
    )
    assert redacted("redis://10.0.0.11:6379/0") == "redis://10.0.0.11:6379/0"
