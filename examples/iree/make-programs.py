#!/usr/bin/env python3
"""Write the JAX corpus: examples/iree/<name>/program.mlir for each program below.

Each program is a model exported from JAX (`jax.jit(f).lower(...)` gives StableHLO, which
iree-compile reads) and placed on 2 to 4 devices: the JAX functions are the stages, and a small
`func.func @main` around them calls each stage and moves tensors between the stages' devices
with `flow.tensor.transfer`. iree-compile inlines the stages, so the dumps look like one model
whose work is split across devices.

Weights are arguments (the runner makes seeded inputs for them), except in `mlp-baked`, whose
weights are seeded constants in the program. Sizes are chosen so that one build with llvm-cpu
takes a few seconds: the test suite builds every program twice.

The output depends only on this script and the JAX version (the file's first line names it),
so running it again with that version gives the same bytes; `make-dumps.sh NAME...` then makes
the dumps from each program.

Usage: examples/iree/make-programs.py [NAME...]   (default: every program; needs `pip install
jax`, which is not a test dependency: the programs are committed)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

HERE = Path(__file__).resolve().parent
F32 = jnp.float32


def spec(*shape: int | object) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(shape, F32)


def tensor_type(shape: tuple[object, ...], element: str = "f32") -> str:
    dims = "x".join("?" if not isinstance(d, int) else str(d) for d in shape)
    return f"tensor<{dims}x{element}>" if dims else f"tensor<{element}>"


@dataclass
class Stage:
    """One JAX function, lowered and renamed `@name` (private) for the wrapper to call."""

    name: str
    text: str


def stage(name: str, fn: Callable[..., object], *specs: jax.ShapeDtypeStruct) -> Stage:
    """Lower `fn` at `specs` to StableHLO and rename its functions into `@name` and
    `@name.<private>` so that stages can share one module."""
    lowered = jax.jit(fn).lower(*specs).as_text(debug_info=False)
    lines = lowered.splitlines()
    assert lines[0].startswith("module @") and lines[-1] == "}", lines[0]
    body = "\n".join(lines[1:-1])
    privates = set(re.findall(r"func\.func private @([\w$.\-]+)", body))
    for private in sorted(privates, key=len, reverse=True):
        body = re.sub(rf"@{re.escape(private)}\b", f"@{name}.{private}", body)
    body = body.replace("func.func public @main(", f"func.func private @{name}(")
    body = re.sub(r" \{jax\.result_info = \"[^\"]*\"\}", "", body)
    return Stage(name, body)


def transfer(value: str, type: str, device: str, dims: str = "") -> str:
    return f"flow.tensor.transfer {value} : {type}{dims} to #hal.device.promise<@{device}>"


MODEL_SIZED = "// model-sized: bench/iree_models.py runs it; the tests build it but do not run it.\n"
"""The second line of a program too large for the test suite to run (tests look for it)."""


def module(comment: str, stages: list[Stage], main: str, model_sized: bool = False) -> str:
    header = f"// Exported from JAX {jax.__version__} by make-programs.py; do not edit.\n"
    if model_sized:
        header += MODEL_SIZED
    comment_lines = "".join(f"// {line}\n" if line else "//\n" for line in comment.splitlines())
    parts = [header + comment_lines + "module {", main.rstrip("\n")]
    parts.extend(s.text for s in stages)
    return "\n".join(parts) + "\n}\n"


def dense(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    return x @ w + b


def relu_layer(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    return jax.nn.relu(dense(x, w, b))


# --- programs -----------------------------------------------------------------------------

HIDDEN = 256


def mlp_deep() -> str:
    """Six relu layers (weights as arguments), three on each of two devices."""
    batch, layers = 4, 6
    x = spec(batch, HIDDEN)
    w, b = spec(HIDDEN, HIDDEN), spec(HIDDEN)

    def three_layers(x, w0, b0, w1, b1, w2, b2):  # type: ignore[no-untyped-def]
        for wi, bi in ((w0, b0), (w1, b1), (w2, b2)):
            x = relu_layer(x, wi, bi)
        return x

    half = stage("layers_a", three_layers, x, w, b, w, b, w, b)
    rest = stage("layers_b", three_layers, x, w, b, w, b, w, b)
    xt, wt, bt = tensor_type((batch, HIDDEN)), tensor_type((HIDDEN, HIDDEN)), tensor_type((HIDDEN,))
    args = ["%x: " + xt]
    for i in range(layers):
        args += [f"%w{i}: {wt}", f"%b{i}: {bt}"]
    lines = [f"  func.func @main({', '.join(args)}) -> {xt} {{"]
    first = ", ".join(f"%w{i}, %b{i}" for i in range(3))
    sig = ", ".join([xt] + [wt, bt] * 3)
    lines.append(f"    %h = call @layers_a(%x, {first}) : ({sig}) -> {xt}")
    lines.append(f"    %h_b = {transfer('%h', xt, 'dev_b')}")
    for i in range(3, layers):
        lines.append(f"    %w{i}_b = {transfer(f'%w{i}', wt, 'dev_b')}")
        lines.append(f"    %b{i}_b = {transfer(f'%b{i}', bt, 'dev_b')}")
    second = ", ".join(f"%w{i}_b, %b{i}_b" for i in range(3, layers))
    lines.append(f"    %y_b = call @layers_b(%h_b, {second}) : ({sig}) -> {xt}")
    lines.append(f"    %y = {transfer('%y_b', xt, 'dev_a')}")
    lines.append(f"    return %y : {xt}")
    lines.append("  }")
    return module(
        "A deep MLP (six 256-wide relu layers, weights as arguments), pipelined over two\n"
        "devices: layers 0-2 on dev_a, the activations and the weights of layers 3-5 moved to\n"
        "dev_b, the result back to dev_a.",
        [half, rest],
        "\n".join(lines),
    )


def mlp_baked() -> str:
    """Three layers whose weights are seeded constants baked into the program."""
    batch, width = 4, 64
    rng = np.random.default_rng(9)
    weights = [
        (
            jnp.asarray(rng.uniform(-0.2, 0.2, (width, width)), F32),
            jnp.asarray(rng.uniform(-0.1, 0.1, (width,)), F32),
        )
        for _ in range(3)
    ]

    def first(x):  # type: ignore[no-untyped-def]
        return relu_layer(x, *weights[0])

    def rest(x):  # type: ignore[no-untyped-def]
        return jnp.tanh(dense(relu_layer(x, *weights[1]), *weights[2]))

    xt = tensor_type((batch, width))
    main = f"""  func.func @main(%x: {xt}) -> {xt} {{
    %h = call @first(%x) : ({xt}) -> {xt}
    %h_b = {transfer("%h", xt, "dev_b")}
    %y_b = call @rest(%h_b) : ({xt}) -> {xt}
    %y = {transfer("%y_b", xt, "dev_a")}
    return %y : {xt}
  }}"""
    return module(
        "An MLP with baked weights (seeded 64x64 constants): layer 0 on dev_a, layers 1-2 on\n"
        "dev_b, whose constants IREE uploads there.",
        [stage("first", first, spec(batch, width)), stage("rest", rest, spec(batch, width))],
        main,
    )


def layer_norm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def transformer_block() -> str:
    """Pre-norm transformer block at hidden size 256: attention on dev_a, MLP on dev_b."""
    seq, heads, ffn = 16, 4, 512
    head = HIDDEN // heads
    xs, sq, vec = spec(seq, HIDDEN), spec(HIDDEN, HIDDEN), spec(HIDDEN)

    def attention(x, gamma, beta, wq, wk, wv, wo):  # type: ignore[no-untyped-def]
        h = layer_norm(x, gamma, beta)
        q, k, v = (jnp.reshape(h @ w, (seq, heads, head)).transpose(1, 0, 2) for w in (wq, wk, wv))
        scores = jnp.einsum("hqd,hkd->hqk", q, k) / np.float32(np.sqrt(head))
        mask = jnp.tril(jnp.ones((seq, seq), bool))
        probs = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
        mixed = jnp.einsum("hqk,hkd->hqd", probs, v).transpose(1, 0, 2).reshape(seq, HIDDEN)
        return x + mixed @ wo

    def mlp(x, gamma, beta, w1, b1, w2, b2):  # type: ignore[no-untyped-def]
        h = layer_norm(x, gamma, beta)
        return x + dense(jax.nn.gelu(dense(h, w1, b1)), w2, b2)

    st = [
        stage("attention", attention, xs, vec, vec, sq, sq, sq, sq),
        stage("mlp", mlp, xs, vec, vec, spec(HIDDEN, ffn), spec(ffn), spec(ffn, HIDDEN), vec),
    ]
    xt, sqt, vt = tensor_type((seq, HIDDEN)), tensor_type((HIDDEN, HIDDEN)), tensor_type((HIDDEN,))
    w1t, b1t, w2t = tensor_type((HIDDEN, ffn)), tensor_type((ffn,)), tensor_type((ffn, HIDDEN))
    mlp_args = [("g2", vt), ("be2", vt), ("w1", w1t), ("b1", b1t), ("w2", w2t), ("b2", vt)]
    moves = "\n".join(f"    %{n}_b = {transfer('%' + n, t, 'dev_b')}" for n, t in mlp_args)
    main = f"""  func.func @main(%x: {xt}, %g1: {vt}, %be1: {vt}, %wq: {sqt}, %wk: {sqt}, %wv: {sqt}, %wo: {sqt}, {", ".join(f"%{n}: {t}" for n, t in mlp_args)}) -> {xt} {{
    %a = call @attention(%x, %g1, %be1, %wq, %wk, %wv, %wo) : ({xt}, {vt}, {vt}, {sqt}, {sqt}, {sqt}, {sqt}) -> {xt}
    %a_b = {transfer("%a", xt, "dev_b")}
{moves}
    %y_b = call @mlp(%a_b, {", ".join(f"%{n}_b" for n, _ in mlp_args)}) : ({xt}, {", ".join(t for _, t in mlp_args)}) -> {xt}
    %y = {transfer("%y_b", xt, "dev_a")}
    return %y : {xt}
  }}"""
    return module(
        "A pre-norm transformer block at hidden size 256 (sequence 16, 4 causal heads, MLP\n"
        "256-512-256 with gelu): layer norm and attention on dev_a, the residual stream moved to\n"
        "dev_b for layer norm and the MLP, the result back to dev_a.",
        st,
        main,
    )


def pipeline_main(xt: str, weights: list[tuple[str, str]]) -> str:
    """`@main` of a four-stage pipeline on dev_a..dev_d: `@block(x, <weights>)` per device,
    with `%x` and each stage's weights (arguments `%<name><stage>`) moved to the stage's
    device, the result back to dev_a."""
    args = ["%x: " + xt] + [f"%{n}{i}: {t}" for i in range(4) for n, t in weights]
    sig = ", ".join([xt] + [t for _, t in weights])
    lines = [f"  func.func @main({', '.join(args)}) -> {xt} {{"]
    value = "%x"
    for i, device in enumerate(("dev_a", "dev_b", "dev_c", "dev_d")):
        names = [f"%{n}{i}" for n, _ in weights]
        if i:
            lines.append(f"    %x{i} = {transfer(value, xt, device)}")
            for (_, t), name in zip(weights, names):
                lines.append(f"    {name}_on = {transfer(name, t, device)}")
            value, names = f"%x{i}", [f"{name}_on" for name in names]
        lines.append(f"    %h{i} = call @block({value}, {', '.join(names)}) : ({sig}) -> {xt}")
        value = f"%h{i}"
    lines.append(f"    %y = {transfer(value, xt, 'dev_a')}")
    lines.append(f"    return %y : {xt}")
    lines.append("  }")
    return "\n".join(lines)


def pipeline_four() -> str:
    """Four stages on four devices: a -> b -> c -> d -> a."""
    batch = 8
    xt, wt = tensor_type((batch, HIDDEN)), tensor_type((HIDDEN, HIDDEN))

    def block(x, w):  # type: ignore[no-untyped-def]
        return jax.nn.gelu(x @ w) + x

    st = stage("block", block, spec(batch, HIDDEN), spec(HIDDEN, HIDDEN))
    return module(
        "A four-stage pipeline on four devices: one gelu block with a residual per device\n"
        "(a -> b -> c -> d), each stage's weight moved to its device, the result back to dev_a.",
        [st],
        pipeline_main(xt, [("w", wt)]),
    )


def data_parallel() -> str:
    """The batch split in halves over dev_b and dev_c, gathered on dev_a."""
    batch = 8
    half = batch // 2
    xt, ht = tensor_type((batch, HIDDEN)), tensor_type((half, HIDDEN))
    wt, bt = tensor_type((HIDDEN, HIDDEN)), tensor_type((HIDDEN,))

    def split(x):  # type: ignore[no-untyped-def]
        return x[:half], x[half:]

    def model(x, w, b):  # type: ignore[no-untyped-def]
        return jnp.tanh(relu_layer(x, w, b) @ w)

    def gather(x, y):  # type: ignore[no-untyped-def]
        return jnp.concatenate([x, y], axis=0)

    st = [
        stage("split", split, spec(batch, HIDDEN)),
        stage("model", model, spec(half, HIDDEN), spec(HIDDEN, HIDDEN), spec(HIDDEN)),
        stage("gather", gather, spec(half, HIDDEN), spec(half, HIDDEN)),
    ]
    main = f"""  func.func @main(%x: {xt}, %w: {wt}, %b: {bt}) -> {xt} {{
    %lo, %hi = call @split(%x) : ({xt}) -> ({ht}, {ht})
    %lo_b = {transfer("%lo", ht, "dev_b")}
    %w_b = {transfer("%w", wt, "dev_b")}
    %b_b = {transfer("%b", bt, "dev_b")}
    %hi_c = {transfer("%hi", ht, "dev_c")}
    %w_c = {transfer("%w", wt, "dev_c")}
    %b_c = {transfer("%b", bt, "dev_c")}
    %y_b = call @model(%lo_b, %w_b, %b_b) : ({ht}, {wt}, {bt}) -> {ht}
    %y_c = call @model(%hi_c, %w_c, %b_c) : ({ht}, {wt}, {bt}) -> {ht}
    %y_lo = {transfer("%y_b", ht, "dev_a")}
    %y_hi = {transfer("%y_c", ht, "dev_a")}
    %y = call @gather(%y_lo, %y_hi) : ({ht}, {ht}) -> {xt}
    return %y : {xt}
  }}"""
    return module(
        "Data parallel on three devices: dev_a splits the batch, each half and a replica of\n"
        "the weights go to dev_b and dev_c, the two halves come back to dev_a and are joined.",
        st,
        main,
    )


def dynamic_batch() -> str:
    """A dynamic batch dimension crossing devices (sizes computed at run time)."""
    (batch,) = export.symbolic_shape("b")
    xt, wt, bt = tensor_type((None, HIDDEN)), tensor_type((HIDDEN, HIDDEN)), tensor_type((HIDDEN,))
    dyn = spec(batch, HIDDEN)

    def layer(x, w, b):  # type: ignore[no-untyped-def]
        return relu_layer(x, w, b)

    st = [stage("layer", layer, dyn, spec(HIDDEN, HIDDEN), spec(HIDDEN))]
    main = f"""  func.func @main(%x: {xt}, %w0: {wt}, %b0: {bt}, %w1: {wt}, %b1: {bt}) -> {xt} {{
    %c0 = arith.constant 0 : index
    %n = tensor.dim %x, %c0 : {xt}
    %n_i32 = arith.index_cast %n : index to i32
    %batch = tensor.from_elements %n_i32 : tensor<i32>
    %h = call @layer(%batch, %x, %w0, %b0) : (tensor<i32>, {xt}, {wt}, {bt}) -> {xt}
    %h_b = {transfer("%h", xt, "dev_b", "{%n}")}
    %w1_b = {transfer("%w1", wt, "dev_b")}
    %b1_b = {transfer("%b1", bt, "dev_b")}
    %batch_b = {transfer("%batch", "tensor<i32>", "dev_b")}
    %y_b = call @layer(%batch_b, %h_b, %w1_b, %b1_b) : (tensor<i32>, {xt}, {wt}, {bt}) -> {xt}
    %y = {transfer("%y_b", xt, "dev_a", "{%n}")}
    return %y : {xt}
  }}"""
    return module(
        "A dynamic batch dimension (exported from JAX with a symbolic batch): one relu layer on\n"
        "dev_a, the activations (their size known only at run time) moved to dev_b for the\n"
        "second layer, the result back to dev_a.",
        st,
        main,
    )


def residual_live() -> str:
    """A residual whose source stays live across its transfer (so that transfer copies)."""
    batch = 8
    xt, wt, bt = tensor_type((batch, HIDDEN)), tensor_type((HIDDEN, HIDDEN)), tensor_type((HIDDEN,))

    def branch(x, w, b):  # type: ignore[no-untyped-def]
        return jax.nn.gelu(dense(layer_norm(x, b, b), w, b))

    def combine(x, y, w):  # type: ignore[no-untyped-def]
        return jnp.tanh((x + y) @ w)

    st = [
        stage("embed", relu_layer, spec(batch, HIDDEN), spec(HIDDEN, HIDDEN), spec(HIDDEN)),
        stage("branch", branch, spec(batch, HIDDEN), spec(HIDDEN, HIDDEN), spec(HIDDEN)),
        stage("combine", combine, spec(batch, HIDDEN), spec(batch, HIDDEN), spec(HIDDEN, HIDDEN)),
    ]
    main = f"""  func.func @main(%x: {xt}, %w0: {wt}, %b0: {bt}, %w1: {wt}, %b1: {bt}, %w2: {wt}) -> {xt} {{
    %h = call @embed(%x, %w0, %b0) : ({xt}, {wt}, {bt}) -> {xt}
    %h_b = {transfer("%h", xt, "dev_b")}
    %w1_b = {transfer("%w1", wt, "dev_b")}
    %b1_b = {transfer("%b1", bt, "dev_b")}
    %f_b = call @branch(%h_b, %w1_b, %b1_b) : ({xt}, {wt}, {bt}) -> {xt}
    %f = {transfer("%f_b", xt, "dev_a")}
    %y = call @combine(%h, %f, %w2) : ({xt}, {xt}, {wt}) -> {xt}
    return %y : {xt}
  }}"""
    return module(
        "A residual branch on another device: dev_a's activations go to dev_b for a norm +\n"
        "dense + gelu branch and are added back on dev_a, so the source of the first transfer\n"
        "stays live across it (a copy), while the branch's result can move back.",
        st,
        main,
    )


def layer_loop() -> str:
    """A loop over stacked layer weights (lax.fori_loop) on dev_b."""
    batch, layers = 4, 4
    xt, st_t = tensor_type((batch, HIDDEN)), tensor_type((layers, HIDDEN, HIDDEN))

    def layers_fn(x, ws):  # type: ignore[no-untyped-def]
        def body(i, h):  # type: ignore[no-untyped-def]
            return jnp.tanh(h @ ws[i]) + h

        return jax.lax.fori_loop(0, layers, body, x)

    def head(x):  # type: ignore[no-untyped-def]
        return jax.nn.softmax(x, axis=-1)

    st = [
        stage("layers", layers_fn, spec(batch, HIDDEN), spec(layers, HIDDEN, HIDDEN)),
        stage("head", head, spec(batch, HIDDEN)),
    ]
    main = f"""  func.func @main(%x: {xt}, %ws: {st_t}) -> {xt} {{
    %x_b = {transfer("%x", xt, "dev_b")}
    %ws_b = {transfer("%ws", st_t, "dev_b")}
    %h_b = call @layers(%x_b, %ws_b) : ({xt}, {st_t}) -> {xt}
    %h = {transfer("%h_b", xt, "dev_a")}
    %y = call @head(%h) : ({xt}) -> {xt}
    return %y : {xt}
  }}"""
    return module(
        "A loop over layers: four residual tanh layers whose weights are stacked in one\n"
        "4x256x256 argument, run by lax.fori_loop on dev_b (IREE keeps the loop on the host and\n"
        "reads its counter back each iteration); a softmax head on dev_a.",
        st,
        main,
    )


def data_dependent_loop() -> str:
    """A while loop whose exit depends on the data: a host readback every iteration."""
    size = 256
    xt = tensor_type((size,))

    def refine(x):  # type: ignore[no-untyped-def]
        def cond(state):  # type: ignore[no-untyped-def]
            i, h = state
            return (i < 16) & (jnp.max(jnp.abs(h)) < 8.0)

        def body(state):  # type: ignore[no-untyped-def]
            i, h = state
            return i + 1, h * 1.5 + jnp.sin(h)

        return jax.lax.while_loop(cond, body, (0, x))[1]

    def normalize(x):  # type: ignore[no-untyped-def]
        return x / (jnp.linalg.norm(x) + 1.0)

    st = [stage("refine", refine, spec(size)), stage("normalize", normalize, spec(size))]
    main = f"""  func.func @main(%x: {xt}) -> {xt} {{
    %x_b = {transfer("%x", xt, "dev_b")}
    %h_b = call @refine(%x_b) : ({xt}) -> {xt}
    %h = {transfer("%h_b", xt, "dev_a")}
    %y = call @normalize(%h) : ({xt}) -> {xt}
    return %y : {xt}
  }}"""
    return module(
        "A data-dependent loop: on dev_b, grow a vector until its largest magnitude reaches 8\n"
        "(at most 16 steps); the exit test reads a value back to the host each iteration. The\n"
        "result is normalized on dev_a.",
        st,
        main,
    )


# --- model-sized programs (bench/iree_models.py) --------------------------------------------
#
# Their cross-device activations are 16 to 128 MiB, so a transfer is a real copy. The shapes
# keep one call within a few seconds of llvm-cpu code on two cores (about 20 GFLOP/s here):
# low-rank layers where a full 4096x4096 one would take seconds, attention over local windows
# where full attention at sequence 2048 would cost 2048 flops per byte moved. Weights are
# arguments (the runner seeds them), so the files stay small. Each is marked `MODEL_SIZED`:
# the test suite checks their dumps and builds them; running them is the bench's job.


def mlp_pipeline() -> str:
    """Pipeline-parallel MLP on 2 devices, batch 4096, hidden 4096: 64 MiB activations."""
    batch, hidden, rank = 4096, 4096, 64
    xt = tensor_type((batch, hidden))
    at, bt = tensor_type((hidden, rank)), tensor_type((rank, hidden))

    def block(x, down, up):  # type: ignore[no-untyped-def]
        # A residual low-rank MLP block: hidden -> rank -> hidden.
        return x + jax.nn.relu(x @ down) @ up

    st = [stage("block", block, spec(batch, hidden), spec(hidden, rank), spec(rank, hidden))]
    main = f"""  func.func @main(%x: {xt}, %down0: {at}, %up0: {bt}, %down1: {at}, %up1: {bt}) -> {xt} {{
    %h = call @block(%x, %down0, %up0) : ({xt}, {at}, {bt}) -> {xt}
    %h_b = {transfer("%h", xt, "dev_b")}
    %down1_b = {transfer("%down1", at, "dev_b")}
    %up1_b = {transfer("%up1", bt, "dev_b")}
    %y_b = call @block(%h_b, %down1_b, %up1_b) : ({xt}, {at}, {bt}) -> {xt}
    %y = {transfer("%y_b", xt, "dev_a")}
    return %y : {xt}
  }}"""
    return module(
        "A pipeline-parallel MLP at model size: batch 4096, hidden 4096 (64 MiB activations),\n"
        "one residual low-rank block (4096 -> 64 -> 4096, relu) per device: dev_a, then the\n"
        "activations moved to dev_b for the second block, the result back to dev_a.",
        st,
        main,
        model_sized=True,
    )


def transformer_pipeline() -> str:
    """Four transformer blocks on four devices at sequence 2048: 16 MiB residual streams."""
    batch, seq, width, heads, window, ffn = 16, 2048, 128, 2, 128, 256
    head = width // heads
    blocks = seq // window
    xs = spec(batch, seq, width)

    def block(x, gamma, wq, wk, wv, wo, w1, w2):  # type: ignore[no-untyped-def]
        # Pre-norm attention over local windows of 128 tokens (causal inside each), then MLP.
        h = layer_norm(x, gamma, gamma)

        def split(w):  # type: ignore[no-untyped-def]
            return jnp.reshape(h @ w, (batch, blocks, window, heads, head))

        q, k, v = split(wq), split(wk), split(wv)
        scores = jnp.einsum("bnqhd,bnkhd->bnhqk", q, k) / np.float32(np.sqrt(head))
        mask = jnp.tril(jnp.ones((window, window), bool))
        probs = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
        mixed = jnp.einsum("bnhqk,bnkhd->bnqhd", probs, v).reshape(batch, seq, width)
        x = x + mixed @ wo
        return x + jax.nn.gelu(layer_norm(x, gamma, gamma) @ w1) @ w2

    sq, vec = spec(width, width), spec(width)
    st = [stage("block", block, xs, vec, sq, sq, sq, sq, spec(width, ffn), spec(ffn, width))]
    xt, vt, sqt = tensor_type((batch, seq, width)), tensor_type((width,)), tensor_type((width, width))
    w1t, w2t = tensor_type((width, ffn)), tensor_type((ffn, width))
    weights = [("g", vt), ("wq", sqt), ("wk", sqt), ("wv", sqt), ("wo", sqt), ("w1", w1t),
               ("w2", w2t)]  # fmt: skip
    return module(
        "A four-stage pipeline of pre-norm transformer blocks at sequence 2048 (batch 16,\n"
        "width 128, 2 heads attending within causal windows of 128 tokens, MLP 128-256-128\n"
        "with gelu), one block per device (a -> b -> c -> d): each 16 MiB residual stream and\n"
        "each stage's weights moved to the next device, the result back to dev_a.",
        st,
        pipeline_main(xt, weights),
        model_sized=True,
    )


def vocab_parallel() -> str:
    """Tensor-parallel output layer: the vocabulary split over dev_b and dev_c, logits
    gathered on dev_a (128 MiB from each)."""
    tokens, width, vocab = 2048, 64, 32768
    half = vocab // 2
    ht, wt = tensor_type((tokens, width)), tensor_type((width, half))
    lt, yt = tensor_type((tokens, half)), tensor_type((tokens,))

    def logits(h, w):  # type: ignore[no-untyped-def]
        return h @ w

    def gather(lo, hi):  # type: ignore[no-untyped-def]
        # log-sum-exp over the whole vocabulary, from the two halves joined.
        return jax.nn.logsumexp(jnp.concatenate([lo, hi], axis=1), axis=1)

    st = [
        stage("logits", logits, spec(tokens, width), spec(width, half)),
        stage("gather", gather, spec(tokens, half), spec(tokens, half)),
    ]
    main = f"""  func.func @main(%h: {ht}, %w_lo: {wt}, %w_hi: {wt}) -> {yt} {{
    %h_b = {transfer("%h", ht, "dev_b")}
    %w_lo_b = {transfer("%w_lo", wt, "dev_b")}
    %h_c = {transfer("%h", ht, "dev_c")}
    %w_hi_c = {transfer("%w_hi", wt, "dev_c")}
    %lo_b = call @logits(%h_b, %w_lo_b) : ({ht}, {wt}) -> {lt}
    %hi_c = call @logits(%h_c, %w_hi_c) : ({ht}, {wt}) -> {lt}
    %lo = {transfer("%lo_b", lt, "dev_a")}
    %hi = {transfer("%hi_c", lt, "dev_a")}
    %y = call @gather(%lo, %hi) : ({lt}, {lt}) -> {yt}
    return %y : {yt}
  }}"""
    return module(
        "A vocabulary-parallel output layer: 2048 token states of width 64 go to dev_b and\n"
        "dev_c, each computes the logits of half of a 32768-word vocabulary (128 MiB), both\n"
        "halves are gathered on dev_a, which joins them and returns each token's log-sum-exp.",
        st,
        main,
        model_sized=True,
    )


PROGRAMS: dict[str, Callable[[], str]] = {
    "mlp-deep": mlp_deep,
    "mlp-baked": mlp_baked,
    "transformer-block": transformer_block,
    "pipeline-four": pipeline_four,
    "data-parallel": data_parallel,
    "dynamic-batch": dynamic_batch,
    "residual-live": residual_live,
    "layer-loop": layer_loop,
    "data-dependent-loop": data_dependent_loop,
    "mlp-pipeline": mlp_pipeline,
    "transformer-pipeline": transformer_pipeline,
    "vocab-parallel": vocab_parallel,
}


def main(names: list[str]) -> None:
    for name in names or list(PROGRAMS):
        if name not in PROGRAMS:
            sys.exit(f"make-programs: no program '{name}' (have: {', '.join(PROGRAMS)})")
        path = HERE / name / "program.mlir"
        path.parent.mkdir(exist_ok=True)
        text = PROGRAMS[name]()
        path.write_text(text, encoding="utf-8")
        print(f"{path.relative_to(HERE)}: {len(text.splitlines())} lines")


if __name__ == "__main__":
    main(sys.argv[1:])
