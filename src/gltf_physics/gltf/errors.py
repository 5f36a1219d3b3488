"""The one error type the container raises: it names the file and where in it the problem is."""

from __future__ import annotations

MESSAGE_LIMIT = 1000  # characters: a hostile value quoted in a message must not make it megabytes long


def clip(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters, with "…" where it was cut (for file names and uris in messages)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class GltfError(Exception):
    """Unreadable or unsafe input.

    ``pointer`` is a JSON pointer (``/accessors/3/count``) or ``offset`` a byte offset into the file;
    ``str(error)`` is the one line the CLI prints: ``FILE: POINTER: message``.
    """

    def __init__(self, message: str, *, file: str | None = None, pointer: str | None = None,
                 offset: int | None = None) -> None:
        message = clip(message, MESSAGE_LIMIT)
        super().__init__(message)
        self.message = message
        self.file = file
        self.pointer = pointer
        self.offset = offset

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
        if self.pointer is not None:
            where.append(self.pointer or "/")
        if self.offset is not None:
            where.append(f"byte {self.offset}")
        return ": ".join([*where, self.message])

    def with_file(self, file: str) -> GltfError:
        if self.file is None:
            self.file = file
        return self
