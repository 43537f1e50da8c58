"""The proxy's configuration as the tests and the load benchmark render it from
``deploy/nginx/odin.conf`` (no nginx needed)."""

from __future__ import annotations

import re
from pathlib import Path

from cluster_processes import AddressQuotas, render_site

DEPLOYED = Path(__file__).parents[2] / "deploy" / "nginx" / "odin.conf"


def test_a_benchmarks_quotas_lift_only_the_sockets_and_new_tables() -> None:
    deployed = DEPLOYED.read_text()
    rendered = render_site(
        deployed,
        8080,
        ["127.0.0.1:9001", "127.0.0.1:9002"],
        Path("/tmp/odin-static"),
        AddressQuotas(sockets=5000, tables=1100),
    )
    assert "limit_conn odin_sockets 5000;" in rendered
    assert "limit_req zone=odin_tables burst=1099 nodelay;" in rendered
    # Every other write keeps the deployed limit (a load generator needs no more of them).
    others = r"limit_req zone=odin_(?!tables)\w+ burst=\d+ nodelay;"
    assert re.findall(others, rendered) == re.findall(others, deployed)
    assert re.findall(others, deployed)  # the deployment has such limits to keep
    assert "server 127.0.0.1:9001" in rendered and "server 127.0.0.1:9002" in rendered
    assert "listen 127.0.0.1:8080;" in rendered
