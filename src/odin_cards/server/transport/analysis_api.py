"""HTTP for issue #13: a finished game's analysis, and a hint for the seat to move.

``GET /api/tables/{id}/analysis`` answers 200 with the analysis once it is computed, 202
``{"status": "pending"}`` (with ``Retry-After``) while it is; ``POST
/api/tables/{id}/hint`` with the seat's token answers the hinted move (``docs/api.md``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from odin_cards.server.core.features.analysis import TableAnalyses
from odin_cards.server.core.features.hints import TableHints
from odin_cards.server.core.protocol.client import valid_table_id
from odin_cards.server.core.tables.hall import Hall
from odin_cards.server.transport.bodies import Body
from odin_cards.server.transport.errors import ApiError
from odin_cards.server.transport.quotas import client_address

router = APIRouter(prefix="/api")

POLL_SECONDS = 2
"""``Retry-After`` of a pending analysis."""


class HintAsk(Body):
    token: Annotated[str, Field(max_length=128)]


async def _table(request: Request, table_id: str) -> Any:
    if not valid_table_id(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    hall: Hall = request.app.state.hall
    return await hall.get_current(table_id)


@router.get("/tables/{table_id}/analysis", response_model=None)
async def analysis(request: Request, table_id: str) -> dict[str, Any] | JSONResponse:
    table = await _table(request, table_id)
    analyses: TableAnalyses = request.app.state.analyses
    done = analyses.status(table, client_address(request.scope))
    if done is None:
        return JSONResponse(
            {"status": "pending"}, status_code=202, headers={"Retry-After": str(POLL_SECONDS)}
        )
    return {"status": "done", "analysis": done}


@router.post("/tables/{table_id}/hint")
async def hint(request: Request, table_id: str, body: HintAsk) -> dict[str, Any]:
    table = await _table(request, table_id)
    hints: TableHints = request.app.state.hints
    return await hints.hint(table, body.token, client_address(request.scope))
