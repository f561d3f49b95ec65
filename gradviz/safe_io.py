"""Reading and writing files without surprises: the one place where GradViz touches a file the
user named (sessions, runs, `gradviz run --out`, autosaves).

Reading: only regular files, opened without blocking (a named pipe cannot hang the caller),
checked by fstat of the open file (no race between the check and the read), the size limit
checked before reading and the read itself bounded (a file that grows, or /dev/zero, cannot
exhaust memory).

Writing: only to a regular file or a new name in an existing folder; never to a device, a pipe,
a socket, a folder or one of the files being read. The text goes to a short-named temporary file
in the same folder that is renamed over the target only when complete, so a crash, a full disk or
a signal never leaves a torn file; the temporary file is removed on any failure; a replaced file
keeps its permissions (and its owner and group where the user may set them). Symbolic links are
followed: the file they point to is replaced, the link stays.

Every problem is a FileProblem whose message names the file (shortened and escaped) and says
what is wrong, in one line. Qt-free."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from collections.abc import Callable, Iterable

from .i18n import Msg
from .model.formatting import show_path

READ_CHUNK = 4 * 1024 * 1024
DEFAULT_NAME_MAX = 255


class FileProblem(ValueError):
    """A file that cannot be read or written; the message names it and says why (one line)."""


class WriteFailed(FileProblem):
    """Writing failed part-way (disk full, I/O error): the target was left as it was."""


class Cancelled(Exception):
    """The user cancelled a long read or write; nothing was changed."""


def _what(mode: int) -> str | None:
    """Why a file of this type is refused, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return Msg("Files", "is a folder, not a file")
    if stat.S_ISFIFO(mode):
        return Msg("Files", "is a named pipe, not a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Msg("Files", "is a device, not a regular file")
    if stat.S_ISSOCK(mode):
        return Msg("Files", "is a socket, not a regular file")
    return Msg("Files", "is not a regular file")


def describe_os_error(e: OSError) -> str:
    return {
        errno.ENOENT: Msg("Files", "no such file"),
        errno.EACCES: Msg("Files", "permission denied"),
        errno.EPERM: Msg("Files", "permission denied"),
        errno.ENOSPC: Msg("Files", "no space left on the device"),
        errno.EDQUOT: Msg("Files", "disk quota exceeded"),
        errno.EROFS: Msg("Files", "the file system is read-only"),
        errno.ENAMETOOLONG: Msg("Files", "the name is too long"),
        errno.ENOTDIR: Msg("Files", "a part of the path is not a folder"),
        errno.EISDIR: Msg("Files", "is a folder, not a file"),
        errno.ELOOP: Msg("Files", "too many symbolic links"),
    }.get(e.errno, (e.strerror or type(e).__name__).lower())


# -- reading ---------------------------------------------------------------------------------------
def read_bytes(
    path: str | os.PathLike,
    max_bytes: int,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> bytes:
    """The bytes of a regular file of at most max_bytes; FileProblem otherwise.

    progress(done, total) is called after every chunk; cancelled() is asked before each one and
    Cancelled is raised when it says so."""
    where = show_path(path)
    if os.fspath(path) in ("", b""):
        raise FileProblem(Msg("Files", "no file name given"))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as e:
        raise FileProblem(
            Msg("Files", "{where}: {error}").format(where=where, error=describe_os_error(e))
            if e.errno == errno.ENOENT
            else Msg("Files", "{where}: cannot be read ({error})").format(where=where, error=describe_os_error(e))
        ) from None
    try:
        st = os.fstat(fd)
        why = _what(st.st_mode)
        if why:
            raise FileProblem(Msg("Files", "{where}: {why}").format(where=where, why=why))
        if st.st_size > max_bytes:
            raise FileProblem(
                Msg("Files", "{where}: the file is {size:,} bytes; at most {max:,} can be opened").format(
                    where=where, size=st.st_size, max=max_bytes
                )
            )
        buf = bytearray()
        total = max(st.st_size, 1)
        while True:
            if cancelled is not None and cancelled():
                raise Cancelled()
            chunk = os.read(fd, min(READ_CHUNK, max_bytes + 1 - len(buf)))
            if not chunk:
                break
            buf += chunk
            if len(buf) > max_bytes:
                raise FileProblem(
                    Msg("Files", "{where}: the file grew past {max:,} bytes while it was read").format(
                        where=where, max=max_bytes
                    )
                )
            if progress is not None:
                progress(len(buf), max(total, len(buf)))
        return bytes(buf)
    except OSError as e:
        raise FileProblem(
            Msg("Files", "{where}: cannot be read ({error})").format(where=where, error=describe_os_error(e))
        ) from None
    finally:
        os.close(fd)


def read_text_file(
    path: str | os.PathLike,
    max_bytes: int,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[str, str]:
    """(text, name for messages) of a UTF-8 regular file; FileProblem says what is wrong
    (progress and cancelled as for read_bytes)."""
    raw = read_bytes(path, max_bytes, progress, cancelled)
    where = show_path(path)
    try:
        return raw.decode("utf-8"), where
    except UnicodeDecodeError:
        raise FileProblem(Msg("Files", "{where}: not a text file (not UTF-8)").format(where=where)) from None


# -- writing ---------------------------------------------------------------------------------------
def check_output(path: str | os.PathLike, not_same_as: Iterable[str | os.PathLike] = ()) -> Path:
    """The regular file that writing `path` would replace (symbolic links followed), or
    FileProblem saying why it must not be written. Nothing is created or changed."""
    text = os.fspath(path)
    if text in ("", b""):
        raise FileProblem(Msg("Files", "no file name given"))
    where = show_path(path)
    if os.fsdecode(text).endswith("/"):
        raise FileProblem(Msg("Files", "{where}: names a folder, not a file").format(where=where))
    target = Path(os.path.realpath(text))
    try:
        st = os.stat(text)  # through the links (also /dev/stdout's, whose realpath is no path: pipe:[…])
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise FileProblem(
            Msg("Files", "{where}: cannot be written ({error})").format(where=where, error=describe_os_error(e))
        ) from None
    if st is not None:
        why = _what(st.st_mode)
        if why:
            raise FileProblem(
                Msg("Files", "{where}: {why}; only regular files are written").format(where=where, why=why)
            )
        for other in not_same_as:
            try:
                if os.path.samestat(st, os.stat(other)):
                    raise FileProblem(
                        Msg("Files", "{where}: is {other}, which is being read; choose another file").format(
                            where=where, other=show_path(other)
                        )
                    )
            except OSError:
                pass
        if not os.access(target, os.W_OK):
            raise FileProblem(Msg("Files", "{where}: cannot be written (permission denied)").format(where=where))
    folder = target.parent
    if not folder.is_dir():
        raise FileProblem(
            Msg("Files", "{where}: the folder {folder} does not exist").format(where=where, folder=show_path(folder))
        )
    try:
        name_max = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = DEFAULT_NAME_MAX
    if len(os.fsencode(target.name)) > name_max:
        raise FileProblem(
            Msg("Files", "{where}: the file name is {n} bytes; at most {max} are allowed").format(
                where=where, n=len(os.fsencode(target.name)), max=name_max
            )
        )
    return target


def probe_output(path: str | os.PathLike, not_same_as: Iterable[str | os.PathLike] = ()) -> Path:
    """check_output, and a temporary file made and removed beside the target: a folder that cannot
    be written is said before a long piece of work (a GIF, a screenshot's training), not after."""
    out = SafeOutput(path, not_same_as, binary=True)
    out.discard()
    return out.target


class SafeOutput:
    """A text file (or, with binary=True, a file of bytes: pictures) written through a temporary
    file in the same folder, renamed over the target by commit() or removed by discard(). As a
    context manager it commits on success and discards on any exception (OSError becomes
    WriteFailed)."""

    def __init__(self, path: str | os.PathLike, not_same_as: Iterable[str | os.PathLike] = (), binary: bool = False):
        self.where = show_path(path)
        self.target = check_output(path, not_same_as)
        try:
            self._old = os.stat(self.target)
        except FileNotFoundError:
            self._old = None
        self.tmp, fd = self._create_temp()
        try:
            if self._old is not None:
                self._copy_owner_and_mode(fd, self._old)
            self.file = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        except BaseException:
            os.close(fd)
            self._unlink_tmp()
            raise

    def _create_temp(self) -> tuple[Path, int]:
        """A new file with a short name (.gv-<8 hex>.tmp), so any legal target name works, made
        with mode 0666 less the umask, as the target would be."""
        for _ in range(100):
            tmp = self.target.parent / f".gv-{secrets.token_hex(4)}.tmp"
            try:
                return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            except FileExistsError:
                continue
            except OSError as e:
                raise FileProblem(
                    Msg("Files", "{where}: cannot be written in {folder} ({error})").format(
                        where=self.where, folder=show_path(self.target.parent), error=describe_os_error(e)
                    )
                ) from None
        raise FileProblem(Msg("Files", "{where}: no temporary file could be made").format(where=self.where))

    @staticmethod
    def _copy_owner_and_mode(fd: int, old: os.stat_result) -> None:
        if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            for uid, gid in ((old.st_uid, old.st_gid), (-1, old.st_gid)):
                try:
                    os.fchown(fd, uid, gid)
                    break
                except OSError:
                    continue
        os.fchmod(fd, stat.S_IMODE(old.st_mode))

    def write(self, text: str | bytes) -> None:
        self.file.write(text)

    def commit(self) -> None:
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            check_output(self.target)  # it may have become something else meanwhile
            os.replace(self.tmp, self.target)
        except OSError as e:
            raise self.failed(e) from None
        except BaseException:
            self.discard()
            raise

    def failed(self, e: OSError) -> WriteFailed:
        """A write or the commit failed (a full disk, an I/O error): the temporary file removed,
        the target left as it was, and the one-line error to raise."""
        self.discard()
        return WriteFailed(
            Msg("Files", "{where}: could not be written ({error}); it was left as it was").format(
                where=self.where, error=describe_os_error(e)
            )
        )

    def discard(self) -> None:
        try:
            self.file.close()
        except (OSError, ValueError):
            pass  # a full disk fails the final flush too: the file is closed all the same
        self._unlink_tmp()

    def _unlink_tmp(self) -> None:
        try:
            os.unlink(self.tmp)
        except FileNotFoundError:
            pass

    def __enter__(self) -> SafeOutput:
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        if kind is None:
            self.commit()
            return False
        self.discard()
        if isinstance(exc, OSError):
            raise WriteFailed(
                Msg("Files", "{where}: could not be written ({error}); it was left as it was").format(
                    where=self.where, error=describe_os_error(exc)
                )
            ) from None
        return False


def atomic_write_text(path: str | os.PathLike, text: str, not_same_as: Iterable[str | os.PathLike] = ()) -> None:
    """Write the whole text, or leave the file as it was (see SafeOutput)."""
    with SafeOutput(path, not_same_as) as out:
        out.write(text)


def atomic_write_bytes(path: str | os.PathLike, data: bytes, not_same_as: Iterable[str | os.PathLike] = ()) -> None:
    """Write all the bytes (a picture), or leave the file as it was (see SafeOutput)."""
    with SafeOutput(path, not_same_as, binary=True) as out:
        out.write(data)
