"""Queue moves on IREE's runtime (`streamopt.iree.moves`): moves between two local-task
devices alias, FORCE_COPY copies and gives the same bytes, REQUIRE_ALIAS on a move that must
copy fails before anything is enqueued, a chained A -> B -> A move, a failed wait fails the
result and frees nothing, and `streamopt-run --backend iree` reports moves and exits without
leak warnings; copied moves reuse the sources they let go, a failed wait leaves that pool
as it was, and the pool frees what it kept."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.iree.build import EXPANDED_MOVES_PASSES, InputKind, Program, build_streamopt
from streamopt.iree.moves import POOL_LIMIT, QueueMoveImplementation, QueueMoves
from streamopt.iree.run import run_vmfb
from streamopt.move_api import MoveFlags, MoveMode
from streamopt.run_command import run_form
from streamopt.runtime.interpreter.report import first_difference

from .conftest import Builds

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "iree"
INPUTS = Path(__file__).resolve().parent / "inputs"
DEVICES = ["dev_a", "dev_b"]


def _run(
    vmfb: Path, flags: MoveFlags = MoveFlags.NONE, inputs: list[str] | None = None
) -> tuple[Any, QueueMoves]:
    moves = QueueMoves(DEVICES, flags)
    return run_vmfb(vmfb, DEVICES, None, inputs or [], [moves]), moves


def _pairs(moves: QueueMoves) -> dict[tuple[str, str], dict[str, Any]]:
    return {(p["source"], p["target"]): p for p in moves.report()["moves_by_device_pair"]}


def test_moves_between_two_local_task_devices_alias(builds: Builds) -> None:
    # two-devices: a dispatch on A, a move to B, a dispatch on B, a move back to A.
    program, plain, streamopt = builds.get(EXAMPLES / "two-devices" / "before-elide-2.mlir")
    assert program.devices == DEVICES
    expected = run_vmfb(plain.vmfb, DEVICES, None, [])
    got, moves = _run(streamopt.vmfb)
    assert first_difference(expected, got) is None
    report = moves.report()
    assert report["moves_aliased"] == 2 and report["moves_copied"] == 0
    assert report["move_modes"] == {MoveMode.ALIAS.value: 2} and report["move_reasons"] == {}
    assert report["bytes_copied_by_moves"] == {"total": 0, "by_device": {"dev_a": 0, "dev_b": 0}}
    # Distinct devices: the program's @dev_a and @dev_b are ordinals 0 and 1 of the run, and
    # the allocator (shared by local-task devices) says B can use A's buffer as it is.
    pairs = _pairs(moves)
    assert set(pairs) == {("dev_a", "dev_b"), ("dev_b", "dev_a")}
    assert all(
        p["aliased"] == 1 and p["bytes_moved"] == 16 and p["bytes_copied"] == 0
        for p in pairs.values()
    )


def test_force_copy_copies_and_matches(builds: Builds) -> None:
    _program, plain, streamopt = builds.get(EXAMPLES / "two-devices" / "before-elide-2.mlir")
    expected = run_vmfb(plain.vmfb, DEVICES, None, [])
    got, moves = _run(streamopt.vmfb, MoveFlags.FORCE_COPY)
    assert first_difference(expected, got) is None
    report = moves.report()
    assert report["moves_aliased"] == 0 and report["moves_copied"] == 2
    assert report["move_reasons"] == {"FORCED": 2}
    # Each copy runs on its target's queue.
    assert report["bytes_copied_by_moves"] == {"total": 32, "by_device": {"dev_a": 16, "dev_b": 16}}


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """inputs/chain.mlir (cmd IR with two stream.cmd.move) built with moves as calls and with
    moves expanded at compile time."""
    path = INPUTS / "chain.mlir"
    program = Program.read(path, path.read_text())
    assert program.kind is InputKind.CMD and program.devices == DEVICES
    calls = build_streamopt(program, tmp_path_factory.mktemp("calls"))
    expanded = build_streamopt(program, tmp_path_factory.mktemp("expanded"), EXPANDED_MOVES_PASSES)
    assert (
        "util.call @streamopt.queue_move.transient.transient"
        in calls.intermediate["streamopt"].read_text()
    )
    assert "streamopt.queue_move" not in expanded.intermediate["streamopt"].read_text()
    return calls.vmfb, expanded.vmfb


def test_chained_move_a_to_b_to_a(chain: tuple[Path, Path]) -> None:
    # Words 1 1 1 1 made on A; after the move to B the last two become 2 2 on B; after the
    # move back the first becomes 3 on A. The second move's source is the first's result.
    calls, expanded = chain
    aliased, moves = _run(calls)
    assert [o.text for o in aliased.outputs] == ["4xi32=3 1 2 2"]
    assert moves.stats.aliased == 2 and list(_pairs(moves)) == [
        ("dev_a", "dev_b"),
        ("dev_b", "dev_a"),
    ]
    copied, forced = _run(calls, MoveFlags.FORCE_COPY)
    assert first_difference(aliased, copied) is None
    assert forced.stats.copied == 2 and forced.report()["bytes_copied_by_moves"]["total"] == 32
    # The second copy lands in A's pool buffer (the first move's source, freed at the end).
    pool = forced.report()["move_pool"]
    assert (pool["hits"], pool["misses"], pool["kept"], pool["freed"]) == (1, 1, 2, 1)
    # Expanded at compile time (IREE's own ops, no module needed): the same bytes.
    plain_ops = run_vmfb(expanded, DEVICES, None, [])
    assert first_difference(aliased, plain_ops) is None
    # And streamopt's reference runtime computes them too.
    path = INPUTS / "chain.mlir"
    reference = run_form(path.read_text(), str(path), [], None, [], None)
    assert [o.text for o in reference.outputs] == ["4xi32=3 1 2 2"]


@pytest.fixture(scope="module")
def subspan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """inputs/subspan.mlir: a hand-written call moving the last 8 of 16 bytes, flags given."""
    path = INPUTS / "subspan.mlir"
    return build_streamopt(
        Program.read(path, path.read_text()), tmp_path_factory.mktemp("subspan")
    ).vmfb


def test_a_subspan_copies(subspan: Path) -> None:
    for flags, reasons in (
        (0, {"SUBSPAN": 1}),
        (int(MoveFlags.KEEP_SOURCE), {"KEEP_SOURCE": 1, "SUBSPAN": 1}),
    ):
        result, moves = _run(subspan, inputs=[f"i64={flags}"])
        assert [o.text for o in result.outputs] == ["2xi32=2 2"]
        assert moves.stats.copied == 1 and dict(moves.stats.reasons) == reasons
        assert moves.report()["bytes_copied_by_moves"]["by_device"] == {"dev_a": 0, "dev_b": 8}


def test_require_alias_on_a_move_that_must_copy_fails_cleanly(subspan: Path) -> None:
    moves = QueueMoves(DEVICES)
    with pytest.raises(DiagnosticError) as failure:
        run_vmfb(subspan, DEVICES, None, [f"i64={int(MoveFlags.REQUIRE_ALIAS)}"], [moves])
    assert failure.value.diagnostics[0].message == (
        "[iree runtime] @main: MoveUnavailable: move of 8 bytes from dev_a to dev_b requires "
        "aliasing (REQUIRE_ALIAS) but must copy: SUBSPAN"
    )
    # Decided before anything was enqueued: no copy, nothing counted as done.
    report = moves.report()
    assert report["moves_rejected"] == 1
    assert report["moves_copied"] == 0 and report["moves_aliased"] == 0
    assert report["bytes_copied_by_moves"]["total"] == 0


def test_require_alias_on_the_command_line() -> None:
    # The sub-span must copy: exit 1 with the reason, no traceback, no leak warnings.
    failed = _cli(INPUTS / "subspan.mlir", "--iree-moves", "require-alias", "--input", "i64=0")
    assert failed.returncode == 1
    assert failed.stderr.startswith(
        f"{INPUTS / 'subspan.mlir'}: error: [iree runtime] @main: MoveUnavailable: move of 8 bytes "
        "from dev_a to dev_b requires aliasing (REQUIRE_ALIAS) but must copy: SUBSPAN\n"
    )
    assert "Traceback" not in failed.stderr and "leaked" not in failed.stderr


@pytest.fixture
def devices() -> Iterator[tuple[Any, list[Any]]]:
    """iree.runtime and two local-task devices, released in order afterwards."""
    import gc

    import iree.runtime as rt

    driver = rt.get_driver("local-task")
    made = [driver.create_default_device() for _ in DEVICES]
    yield rt, made
    gc.collect()
    made.clear()
    del driver
    gc.collect()


def _transient(rt: Any, device: Any, words: np.ndarray) -> Any:
    """A queue-allocated buffer on `device` holding `words` (a transient: once it is freed,
    mapping it fails)."""
    ready = rt.HalFence.create_at(device.create_semaphore(0), 1)
    buffer = device.queue_alloca(
        words.nbytes, rt.HalFence.create_at(device.create_semaphore(1), 1), ready
    )
    ready.wait()
    buffer.map().asarray(words.shape, words.dtype)[...] = words
    return buffer


def _contents(buffer: Any, words: np.ndarray) -> np.ndarray:
    return np.array(buffer.map().asarray(words.shape, words.dtype))


@pytest.mark.parametrize("flags", [MoveFlags.NONE, MoveFlags.FORCE_COPY], ids=["alias", "copy"])
def test_a_failed_wait_fails_the_result_and_frees_nothing(
    devices: tuple[Any, list[Any]], flags: MoveFlags
) -> None:
    rt, hal_devices = devices
    words = np.arange(4, dtype=np.int32)
    source = _transient(rt, hal_devices[0], words)
    wait = rt.HalFence.create_at(hal_devices[0].create_semaphore(0), 1)
    wait.fail("the producer failed")
    moves = QueueMoves(DEVICES)
    implementation = QueueMoveImplementation(moves, rt, hal_devices)
    _result, fence = implementation.queue_move(source, 0, words.nbytes, 0, 1, -1, flags, wait)
    with pytest.raises(RuntimeError, match="the producer failed"):
        fence.wait()
    # Not freed: the transient is still committed and holds its bytes; nothing was copied.
    assert (_contents(source, words) == words).all()
    report = moves.report()
    assert report["bytes_copied_by_moves"]["total"] == 0
    assert report["moves_failed"] == (1 if flags & MoveFlags.FORCE_COPY else 0)


def test_a_copied_move_frees_its_source(devices: tuple[Any, list[Any]]) -> None:
    # The check above can see a free: after a copy, the source's transient is gone, and the
    # result holds the bytes on the target; KEEP_SOURCE keeps it.
    rt, hal_devices = devices
    words = np.arange(4, dtype=np.int32)
    implementation = QueueMoveImplementation(QueueMoves(DEVICES), rt, hal_devices)
    source = _transient(rt, hal_devices[0], words)
    result, fence = implementation.queue_move(
        source, 0, words.nbytes, 0, 1, -1, MoveFlags.FORCE_COPY, None
    )
    fence.wait()
    assert (_contents(result, words) == words).all()
    with pytest.raises(RuntimeError, match="not been committed"):
        _contents(source, words)
    kept = _transient(rt, hal_devices[0], words)
    result, fence = implementation.queue_move(
        kept, 0, words.nbytes, 0, 1, -1, MoveFlags.KEEP_SOURCE, None
    )
    fence.wait()
    assert (_contents(kept, words) == words).all() and (_contents(result, words) == words).all()


def _write(buffer: Any, words: np.ndarray) -> None:
    buffer.map().asarray(words.shape, words.dtype)[...] = words


def _forced(
    implementation: QueueMoveImplementation, source: Any, nbytes: int, to: int, wait: Any = None
) -> tuple[Any, Any]:
    """A FORCE_COPY move of the whole of `source` (a transient the program gave up) from the
    other device to `to`."""
    return implementation.queue_move(
        source, 0, nbytes, 1 - to, to, -1, MoveFlags.FORCE_COPY, wait, "transient", "transient"
    )


def _module(
    devices: tuple[Any, list[Any]],
) -> tuple[Any, list[Any], QueueMoves, QueueMoveImplementation]:
    rt, hal_devices = devices
    moves = QueueMoves(DEVICES)
    return rt, hal_devices, moves, QueueMoveImplementation(moves, rt, hal_devices)


def test_a_forced_copy_chain_reuses_memory(devices: tuple[Any, list[Any]]) -> None:
    # A -> B -> A -> B: the first copy allocates on B; each later one takes the buffer the
    # move before it let go on its target. Each hop writes new words where it arrived, so a
    # copy into the reused buffer that did not happen would show the words it held before.
    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(8, dtype=np.int32)
    buffer = _transient(rt, hal_devices[0], words)
    for hop, to in enumerate((1, 0, 1)):
        buffer, fence = _forced(implementation, buffer, words.nbytes, to)
        fence.wait()
        assert (_contents(buffer, words) == words).all()
        words = words + 10 * (hop + 1)
        _write(buffer, words)
    report = moves.report()
    assert report["move_pool"] == {
        "hits": 2, "misses": 1, "kept": 3, "freed": 0, "dropped": 0,
        "peak_bytes": words.nbytes,  # One buffer kept at a time: the one not in use.
    }  # fmt: skip
    assert [p["reused"] for p in report["moves_by_device_pair"]] == [1, 1]
    kept = implementation._pools[0][0].buffer
    assert (_contents(kept, words) == words - 30).all()  # What the second hop wrote.
    # Released when the run ends: a dealloca of what is left (the transient is gone).
    implementation.release_pool()
    assert moves.report()["move_pool"]["freed"] == 1
    with pytest.raises(RuntimeError, match="not been committed"):
        _contents(kept, words)
    assert (_contents(buffer, words) == words).all()


def test_a_large_forced_copy_chain_goes_through_command_buffers(
    devices: tuple[Any, list[Any]],
) -> None:
    # At COMMAND_BUFFER_COPY bytes and more a whole-buffer copy is recorded in a command buffer
    # (faster than queue_copy there): the same bytes arrive, into reused memory too.
    from streamopt.iree.moves import COMMAND_BUFFER_COPY

    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(COMMAND_BUFFER_COPY // 4, dtype=np.int32)
    buffer = _transient(rt, hal_devices[0], words)
    for hop, to in enumerate((1, 0, 1)):
        buffer, fence = _forced(implementation, buffer, words.nbytes, to)
        fence.wait()
        assert (_contents(buffer, words) == words).all()
        words = words[::-1] + hop + 1  # Every word changes, so a stale copy would show.
        _write(buffer, words)
    assert moves.report()["move_pool"]["hits"] == 2
    implementation.release_pool()


def test_a_failed_wait_leaves_the_pool_as_it_was(devices: tuple[Any, list[Any]]) -> None:
    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(4, dtype=np.int32)
    # A's pool keeps the first move's source.
    on_b, fence = _forced(implementation, _transient(rt, hal_devices[0], words), words.nbytes, 1)
    fence.wait()
    # A move to A whose wait failed: it fails, frees nothing, and takes nothing from the pool.
    source = _transient(rt, hal_devices[1], words + 1)
    failed = rt.HalFence.create_at(hal_devices[1].create_semaphore(0), 1)
    failed.fail("the producer failed")
    _result, fence = _forced(implementation, source, words.nbytes, 0, failed)
    with pytest.raises(RuntimeError, match="the producer failed"):
        fence.wait()
    assert (_contents(source, words) == words + 1).all()
    pool = moves.report()["move_pool"]
    assert (pool["hits"], pool["kept"], pool["dropped"]) == (0, 1, 0)
    # The kept buffer still serves the next move to A, with the right bytes.
    back, fence = _forced(implementation, on_b, words.nbytes, 0)
    fence.wait()
    assert (_contents(back, words) == words).all()
    assert moves.report()["move_pool"]["hits"] == 1 and moves.failed == 1


def test_a_wait_that_fails_later_is_not_handed_on(devices: tuple[Any, list[Any]]) -> None:
    # The wait fails after the move was enqueued: the copy is skipped, the source (kept behind
    # it) is not freed, and the next move to its device does not take it (it would fail too).
    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(4, dtype=np.int32)
    source = _transient(rt, hal_devices[0], words)
    later = rt.HalFence.create_at(hal_devices[0].create_semaphore(0), 1)
    _result, fence = _forced(implementation, source, words.nbytes, 1, later)
    later.fail("the producer failed later")
    with pytest.raises(RuntimeError, match="the producer failed later"):
        fence.wait()
    assert (_contents(source, words) == words).all()
    other = _transient(rt, hal_devices[1], words + 5)
    back, fence = _forced(implementation, other, words.nbytes, 0)
    fence.wait()
    assert (_contents(back, words) == words + 5).all()
    pool = moves.report()["move_pool"]
    assert (pool["hits"], pool["misses"], pool["dropped"]) == (0, 2, 1)
    implementation.release_pool()
    assert (_contents(source, words) == words).all()  # Dropped, never freed.


def test_the_pool_frees_its_oldest_past_the_limit(devices: tuple[Any, list[Any]]) -> None:
    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(4, dtype=np.int32)
    sources = [_transient(rt, hal_devices[0], words) for _ in range(POOL_LIMIT + 1)]
    for source in sources:
        _result, fence = _forced(implementation, source, words.nbytes, 1)
        fence.wait()
    implementation.release_pool()  # Waits for the dealloca the limit made, too.
    assert moves.report()["move_pool"]["freed"] == POOL_LIMIT + 1
    for source in sources:
        with pytest.raises(RuntimeError, match="not been committed"):
            _contents(source, words)
    # A staging result never takes a kept buffer (it must be host-local and mappable), and a
    # source of another lifetime is freed, not kept.
    kept = _transient(rt, hal_devices[0], words)
    _result, fence = _forced(implementation, kept, words.nbytes, 1)
    fence.wait()
    staged, fence = implementation.queue_move(
        _transient(rt, hal_devices[1], words), 0, words.nbytes, 1, 0, -1,
        MoveFlags.FORCE_COPY, None, "external", "staging",
    )  # fmt: skip
    fence.wait()
    pool = moves.report()["move_pool"]
    assert pool["hits"] == 0 and pool["kept"] == POOL_LIMIT + 2
    assert (_contents(staged, words) == words).all() and (_contents(kept, words) == words).all()


def test_a_decision_is_kept_per_kind_of_move(devices: tuple[Any, list[Any]]) -> None:
    # Moves with the same static facts share one decision (the host path asks the allocator
    # once); a different length, flag or part of a buffer is decided on its own, and every
    # move is still counted with its own reasons.
    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(4, dtype=np.int32)
    for _ in range(3):
        implementation.queue_move(_transient(rt, hal_devices[0], words), 0, 16, 0, 1, -1, 0, None)
    assert len(implementation._verdicts) == 1 and moves.stats.aliased == 3
    implementation.queue_move(_transient(rt, hal_devices[0], words), 0, 8, 0, 1, -1, 0, None)
    result, fence = implementation.queue_move(
        _transient(rt, hal_devices[0], words), 0, 16, 0, 1, -1, MoveFlags.FORCE_COPY, None
    )
    fence.wait()
    assert (_contents(result, words) == words).all()
    assert len(implementation._verdicts) == 3
    assert moves.stats.aliased == 3 and moves.stats.copied == 2
    assert dict(moves.stats.reasons) == {"SUBSPAN": 1, "FORCED": 1}
    assert _pairs(moves)[("dev_a", "dev_b")]["moves"] == 5


def test_the_pool_keeps_only_what_it_can_hand_out(devices: tuple[Any, list[Any]]) -> None:
    # A host-local source cannot stand in for a device-local alloca: it is freed, not kept.
    rt, hal_devices, moves, implementation = _module(devices)
    words = np.arange(4, dtype=np.int32)
    host = hal_devices[0].allocator.allocate_buffer(
        rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE, rt.BufferUsage.DEFAULT, 16
    )
    _write(host, words)
    result, fence = _forced(implementation, host, words.nbytes, 1)
    fence.wait()
    assert (_contents(result, words) == words).all()
    assert moves.report()["move_pool"]["kept"] == 0


def _cli(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`streamopt-run PATH --backend iree ARGS` in a process of its own (exit warnings show)."""
    command = [sys.executable, "-c", "from streamopt.run_command import main; main()", str(path),
               "--backend", "iree", *args]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_the_command_compares_three_builds_and_exits_cleanly(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    completed = _cli(
        EXAMPLES / "two-devices" / "before-elide-2.mlir",
        "--compare",
        "--report-json",
        str(report_path),
    )
    assert completed.returncode == 0, completed.stderr
    # No nanobind leak warnings (or anything else) at exit.
    assert completed.stderr == ""
    out = completed.stdout
    assert "moves on IREE's runtime" in out
    assert "dev_a -> dev_b" in out and "dev_b -> dev_a" in out and "FORCED 1" in out
    report = json.loads(report_path.read_text())
    assert [b["build"] for b in report["builds"]] == [
        "streamopt",
        "streamopt, moves forced to copy",
        "plain",
    ]
    assert report["same_bytes"] is True
    # The reference backend's keys, for the streamopt build.
    assert report["moves_aliased"] == 2 and report["moves_copied"] == 0
    assert report["bytes_copied_by_moves"]["total"] == 0
    forced = report["builds"][1]
    assert forced["moves_copied"] == 2 and forced["bytes_copied_by_moves"]["total"] == 32
    assert forced["outputs"] == report["builds"][0]["outputs"] == report["builds"][2]["outputs"]
