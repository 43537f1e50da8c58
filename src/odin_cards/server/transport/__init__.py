"""The HTTP and WebSocket layers: requests and messages checked at the edge, limits and
quotas, security headers, and the mapping of the domain's stable error codes to statuses."""
