"""A scripted responder for the relay: the offline model answers each request file, as a helper session would.

It proves the relay, the recording and the replay end to end with no capable model, and records fixture
cassettes (`relay record ... --responder offline`). It reads only what a helper reads (`NNNN.request.json`) and
writes its reply create-only. Subclasses change `reply_bytes` to misbehave on purpose.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from agentic_ds.testing.chat_request import reply_of_message
from agentic_ds.testing.relay_files import name, write_new


class OfflineResponder:
    def __init__(self, folder: Path, poll_s: float = 0.05) -> None:
        from agentic_ds.testing.openai_brain import OfflineBrain

        self.folder = folder
        self.poll_s = poll_s
        self.brain = OfflineBrain()
        self.writes: dict[int, int] = {}   # replies written per request (more than one after a rejection)
        self.errors: list[BaseException] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def start(self) -> OfflineResponder:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def __enter__(self) -> OfflineResponder:
        return self.start()

    def __exit__(self, *_exc: Any) -> None:
        self.stop()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        return reply_of_message(self.brain.answer(body)["message"])

    def reply_bytes(self, number: int, body: dict[str, Any]) -> bytes:
        return json.dumps(self.reply(body), ensure_ascii=False).encode("utf-8")

    @property
    def answered(self) -> list[int]:
        return sorted(self.writes)

    def _pending(self) -> list[int]:
        """Requests with no reply yet, or whose every reply so far was rejected (an `.error` file each)."""
        numbers = []
        for path in self.folder.glob("*.request.md"):
            number = int(path.name.split(".", 1)[0])
            if (self.folder / name(number, "reply.json")).exists():
                continue
            rejected = len(list(self.folder.glob(f"{number:04d}.reply.*.error")))
            if self.writes.get(number, 0) <= rejected:
                numbers.append(number)
        return sorted(numbers)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                for number in self._pending():
                    body = json.loads((self.folder / name(number, "request.json")).read_text(encoding="utf-8"))
                    write_new(self.folder / name(number, "reply.json"), self.reply_bytes(number, body))
                    self.writes[number] = self.writes.get(number, 0) + 1
            except Exception as error:  # noqa: BLE001 - kept for the test to report; the relay then waits
                self.errors.append(error)
                return
            self._stop.wait(self.poll_s)
