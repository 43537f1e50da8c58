"""The bus and the router of several processes, on Redis pub/sub (redis-py's asyncio client).

Channels, under a key prefix (``--redis-prefix``, so several servers or test runs can share
one Redis): ``<prefix>t:<table id>`` carries a table's changes from its owner to every
process that follows the table (logged actions with their numbers, seats and status,
ownership, presence), ``<prefix>p:<process id>`` the requests to one process and the
answers to its own requests (each with a correlation id).

Pub/sub is at most once. A subscriber sees a table's messages in the order they were
published (one publishing connection, one pipeline at a time) and handles them in that
order, each table apart from the others (one table waiting for its lock holds up no other
and no answer); a follower that sees a gap
in the action numbers reads the log, and after a lost connection every follower reads
its logs again (the ``resync`` delivered to the handler). A request to a process that
is not subscribed (dead) fails at once: ``PUBLISH`` says nobody received it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from odin_cards.server.core.ports import BusHandler, RequestHandler

log = logging.getLogger(__name__)

MAX_PIPELINE = 500
SUBSCRIBE_SECONDS = 5.0


def _dump(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


class RedisMessaging:
    """:class:`~..domain.ports.Bus` and :class:`~..domain.ports.Router` on one Redis.

    :meth:`start` it before use and :meth:`stop` it at shut-down.
    """

    def __init__(self, url: str, prefix: str, owner: str) -> None:
        self.redis: Redis = Redis.from_url(url, socket_connect_timeout=5, socket_timeout=10)
        self.pubsub = self.redis.pubsub()
        self.prefix = prefix
        self.owner = owner
        self.inbox = f"{prefix}p:{owner}"
        self.outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.following: set[str] = set()
        self._subscribed: dict[str, asyncio.Future[None]] = {}
        self._answers: dict[str, asyncio.Future[Any]] = {}
        self._handler: BusHandler | None = None
        self._serve: RequestHandler | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._queues: dict[str, collections.deque[dict[str, Any]]] = {}
        """Tables' messages not yet handled, each table's in order (:meth:`_deliver`)."""
        self._loops: list[asyncio.Task[None]] = []
        self._publishing = False

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        """Subscribe to this process's own channel and start reading and writing.
        Raises ``RedisError``/``OSError`` if Redis cannot be reached."""
        await self.pubsub.subscribe(self.inbox)
        self._loops = [
            asyncio.create_task(self._read(), name="redis-read"),
            asyncio.create_task(self._write(), name="redis-write"),
        ]

    async def stop(self) -> None:
        """Publish what is queued (e.g. leases released at a graceful stop), then stop."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2.0
        while (not self.outbox.empty() or self._publishing) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        await asyncio.gather(*self._loops, *self._tasks, return_exceptions=True)
        with contextlib.suppress(RedisError, OSError):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    async def ping(self) -> bool:
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), 2.0))
        except (RedisError, OSError, TimeoutError):
            return False

    # ------------------------------------------------------------ bus

    def _channel(self, table_id: str) -> str:
        return f"{self.prefix}t:{table_id}"

    async def follow(self, table_id: str) -> None:
        channel = self._channel(table_id)
        if channel in self.following:
            return
        self.following.add(channel)
        await self._subscribe(channel)

    def unfollow(self, table_id: str) -> None:
        channel = self._channel(table_id)
        if channel in self.following:
            self.following.discard(channel)
            self._spawn(self._unsubscribe(channel))

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        self.outbox.put_nowait((self._channel(table_id), _dump(message)))

    def listen(self, handler: BusHandler) -> None:
        self._handler = handler

    @property
    def handler(self) -> BusHandler | None:
        """What :meth:`listen` was given (a test wraps it to lose messages on purpose)."""
        return self._handler

    # ------------------------------------------------------------ router

    def serve(self, handler: RequestHandler) -> None:
        self._serve = handler

    async def request(self, process: str, message: dict[str, Any], timeout: float) -> Any:
        rid = secrets.token_hex(8)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._answers[rid] = answer
        try:
            envelope = {"rid": rid, "from": self.owner, "body": message}
            try:
                heard = await self.redis.publish(f"{self.prefix}p:{process}", _dump(envelope))
            except (RedisError, OSError) as error:
                raise TimeoutError(f"Redis: {error}") from None
            if not heard:
                raise TimeoutError(f"process {process} is not listening")
            return await asyncio.wait_for(answer, timeout)
        finally:
            self._answers.pop(rid, None)

    # ------------------------------------------------------------ inside

    async def _subscribe(self, channel: str) -> None:
        done = self._subscribed.setdefault(channel, asyncio.get_running_loop().create_future())
        try:
            await self.pubsub.subscribe(channel)
            await asyncio.wait_for(asyncio.shield(done), SUBSCRIBE_SECONDS)
        except (RedisError, OSError, TimeoutError) as error:
            log.warning("Redis: subscribing to a channel failed (%s)", error)
        finally:
            self._subscribed.pop(channel, None)

    async def _unsubscribe(self, channel: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        lost = False
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except (RedisError, OSError, RuntimeError) as error:
                if not lost:
                    log.warning("Redis: connection lost (%s); reconnecting", error)
                lost = True
                await asyncio.sleep(0.5)
                continue
            if lost:
                lost = False
                log.info("Redis: connected again; followed tables read their logs")
                if self._handler is not None:
                    await self._handler(None, {"kind": "resync"})
            if message is None:
                continue
            try:
                await self._dispatch(message)
            except Exception:
                log.exception("Redis: a message could not be handled")

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        if kind == "subscribe":
            done = self._subscribed.get(channel)
            if done is not None and not done.done():
                done.set_result(None)
            return
        if kind != "message":
            return
        data = json.loads(message["data"])
        if channel == self.inbox:
            if "answer" in data:
                answer = self._answers.get(data.get("rid", ""))
                if answer is not None and not answer.done():
                    answer.set_result(data["answer"])
            elif self._serve is not None:
                self._spawn(self._answer(data))
            return
        if channel in self.following and self._handler is not None:
            self._deliver(channel[len(self.prefix) + 2 :], data)

    def _deliver(self, table_id: str, data: dict[str, Any]) -> None:
        """Hand a table's message to the handler after that table's earlier ones, never
        holding up the reader: a handler may wait for the table's lock or read its log,
        and the reader also carries every other table's messages, the answers to this
        process's requests and the confirmations of its subscriptions (under a thousand
        tables, handled inline, they waited long enough for requests to time out)."""
        queue = self._queues.get(table_id)
        if queue is not None:
            queue.append(data)
            return
        self._queues[table_id] = collections.deque([data])
        self._spawn(self._drain(table_id))

    async def _drain(self, table_id: str) -> None:
        queue = self._queues[table_id]
        try:
            while queue and self._handler is not None:
                try:
                    await self._handler(table_id, queue.popleft())
                except Exception:
                    log.exception("Redis: a message could not be handled")
        finally:
            del self._queues[table_id]

    async def _answer(self, envelope: dict[str, Any]) -> None:
        assert self._serve is not None
        answer = await self._serve(envelope["body"])
        reply = {"rid": envelope["rid"], "answer": answer}
        with contextlib.suppress(RedisError, OSError):
            await self.redis.publish(f"{self.prefix}p:{envelope['from']}", _dump(reply))

    async def _write(self) -> None:
        """Publish queued messages in order, a pipeline at a time (one round trip)."""
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < MAX_PIPELINE and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            self._publishing = True
            for attempt in (1, 2):
                try:
                    pipe = self.redis.pipeline(transaction=False)
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
                    break
                except (RedisError, OSError) as error:
                    log.warning("Redis: publishing %d messages failed (%s)", len(batch), error)
                    if attempt == 1:
                        await asyncio.sleep(0.2)
            self._publishing = False

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
