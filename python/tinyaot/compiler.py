"""The pipeline, top to bottom: frontend -> views -> fusion -> lowering -> planner -> codegen."""

import re
from dataclasses import dataclass, field, replace

from collections import Counter
from typing import NamedTuple

from tinyaot.backends import KERNEL_BACKENDS, OPTIMIZE, cmsis_nn
from tinyaot.cores import CPU_ARCH, NO_LONG_MULTIPLY
from tinyaot.errors import InvalidTensorError, TinyAotError, UnsupportedError
from tinyaot.frontend.tflite_reader import read_tflite
from tinyaot.ops import LOWERINGS, VIEW_OPS
from tinyaot.ops.band_chain import lower_band_chain
from tinyaot.ops.band_fc import lower_band_fc
from tinyaot.ops.band_residual import lower_band_residual
from tinyaot.ops.base import LowerContext
from tinyaot.ops.copy import lower_copy
from tinyaot.ops.subgraphs import INTERNAL_OPS
from tinyaot.passes.fusion import MAX_BAND_SHARE, ChainFusion, ResidualFusion, find_fusions, planning_graph
from tinyaot.passes.views import find_views
from tinyaot.planner.greedy import align_up
from tinyaot.planner.strategies import plan
from tinyaot.planner.lifetimes import arena_buffers
from tinyaot.planner.verify import verify_plan


WEIGHTS_MODES = ("linked", "blob")
CMSIS_NN_1X1 = ("auto", "wrapper", "im2col")
CMSIS_NN_CONV = ("auto", "im2col")
CMSIS_NN_LSTM = ("auto", "step")
SUPPORTED_OPERATORS = frozenset(LOWERINGS) | VIEW_OPS


@dataclass
class Options:
    name: str
    alignment: int = 16
    weights_section: str | None = None
    arena_section: str | None = None
    inputs_in_arena: bool = False  # the caller may write inputs straight into the arena
    kernels: str = "portable"  # kernel backend, one of KERNEL_BACKENDS
    cpu: str = "cortex-m3"  # the core: its ISA level picks the kernels (CPU_ARCH), and CMSIS-NN's scratch sizes
    weights: str = "linked"  # "linked": static const arrays; "blob": <name>.weights.bin, bound at run time
    arena_group: str | None = None  # models of one group share the arena tinyaot_<group>_arena (runs must not overlap)
    fusion: bool = True  # band fusion of a convolution into its FULLY_CONNECTED (passes/fusion.py)
    # --kernels cmsis-nn, 1x1 convolutions: "auto": on arm_convolve_s8 (cmsis_nn.conv_kernel) where the arena
    # comes out smaller (cores without DSP); "wrapper": CMSIS-NN's 1x1 kernels; "im2col": arm_convolve_s8.
    cmsis_nn_1x1: str = "auto"
    optimize: str = "speed"  # one of OPTIMIZE
    # --kernels cmsis-nn, other convolutions: "auto": on tinyaot_conv2d_s8 on cores without DSP where
    # arm_convolve_s8's scratch would raise the arena and tinyaot's kernel is not slower
    # (cmsis_nn.PORTABLE_FOR_ARENA_ON_SCALAR); "im2col": on arm_convolve_s8 wherever CMSIS-NN takes them.
    cmsis_nn_conv: str = "auto"
    # --kernels cmsis-nn, integer LSTMs: "auto": on tinyaot's LSTM kernels on cores without DSP where they
    # are faster than CMSIS-NN's plain C step (cmsis_nn_lstm.PORTABLE_ON_SCALAR: 16x8, and int8 with a
    # 64-bit multiply); "step": on CMSIS-NN's step wherever it is exact.
    cmsis_nn_lstm: str = "auto"
    # Set by the compiler, not the user: CONV_2D operator indices "auto" keeps on tinyaot_conv2d_s8.
    arena_convolutions: frozenset = frozenset()


@dataclass
class CompiledModel:
    options: Options
    graph: object
    views: object
    calls: list  # [(operator, [KernelCall, ...])] in execution order
    buffers: list
    arena_size: int
    lower_bound: int  # classic, of the unfused graph: no operator's output shares bytes with its inputs
    state: dict  # variable tensor index -> offset in the state area
    state_size: int
    backends: dict  # operator index -> (backend, why not the chosen one, or None)
    plan: object  # planner.strategies.PlanOutcome: which strategy won, proven optimal or not
    notes: list = field(default_factory=list)
    fusions: dict = field(default_factory=dict)  # consumer operator index -> passes.fusion.Fusion


def compile_model(path, options):
    check_options(options)
    graph = _read_graph(path)
    _check_int64_alignment(graph, options.alignment)
    views = find_views(graph, options.inputs_in_arena)
    # Not into or out of a subgraph's steps: a fused producer would not run where the other branch needs it.
    fusions = find_fusions(graph, views, options.alignment) if options.fusion and not graph.blocks else {}
    planned = _smaller_plan(graph, views, options, fusions)
    unchained = {k: f for k, f in fusions.items() if not isinstance(f, ChainFusion)}
    if unchained != fusions:
        # Chains only cost their bands' calls where they do not lower the peak: kept where the arena
        # shrinks by a quarter of what they leave unstored (ds_cnn_kws's first convolution would save
        # 128 of 10048 bytes).
        without = _smaller_plan(graph, views, options, unchained)
        unstored = sum(graph.tensors[f.tensor].nbytes for f in fusions.values() if isinstance(f, ChainFusion))
        if without.outcome.arena_size - planned.outcome.arena_size < unstored // MAX_BAND_SHARE:
            planned, fusions = without, unchained
    unfused = _smaller_plan(graph, views, options, {}) if fusions else planned
    declined = None
    if unfused.outcome.arena_size <= planned.outcome.arena_size:
        # Outputs written over inputs can beat a band (a strided convolution over its input):
        # fusion is kept only where the whole plan comes out smaller.
        if fusions:
            declined = (f"band fusion not used: the unfused arena ({unfused.outcome.arena_size} bytes) is not larger "
                        f"than the fused one ({planned.outcome.arena_size})")
        planned, fusions = unfused, {}
    calls, backends, buffers, outcome = planned[:4]
    state, state_size = place_state(graph, options.alignment)
    model = CompiledModel(options, graph, views, calls, buffers, outcome.arena_size, unfused.outcome.lower_bound,
                          state, state_size, backends, outcome, fusions=fusions)
    if outcome.arena_size != outcome.bound:
        model.notes.append(outcome.note())
    for f in fusions.values():
        model.notes.append(f"fused: {f.describe(graph)}")
    if fusions:
        model.notes.append(f"classic lower bound {model.lower_bound} bytes unfused, {outcome.lower_bound} fused")
    if declined:
        model.notes.append(declined)
    if planned.pointwise_note:
        model.notes.append(planned.pointwise_note)
    if planned.convolution_note:
        model.notes.append(planned.convolution_note)
    return model


class _Planned(NamedTuple):
    calls: list
    backends: dict
    buffers: list
    outcome: object
    pointwise_note: str | None = None
    convolution_note: str | None = None


def _smaller_plan(graph, views, options, fusions):
    """_smaller_pointwise_plan; with CMSIS-NN on a core without DSP (--cmsis-nn-conv auto), also with
    the convolutions cmsis_nn.arena_candidate names on tinyaot_conv2d_s8, which needs no scratch, where
    arm_convolve_s8's scratch raises the arena: all of them first (one plan more), then each put back
    on CMSIS-NN where the arena stays as small (one plan more per candidate, only if the first shrank it)."""
    planned = _smaller_pointwise_plan(graph, views, options, fusions)
    if options.kernels != "cmsis-nn" or options.cmsis_nn_conv != "auto" or CPU_ARCH[options.cpu] != "scalar":
        return planned
    candidates = _arena_candidates(graph, options)
    if not candidates:
        return planned
    best = _smaller_pointwise_plan(graph, views, replace(options, arena_convolutions=frozenset(candidates)), fusions)
    if best.outcome.arena_size >= planned.outcome.arena_size:
        return planned
    kept = set(candidates)
    for k in candidates:
        trial = _smaller_pointwise_plan(graph, views, replace(options, arena_convolutions=frozenset(kept - {k})),
                                        fusions)
        if trial.outcome.arena_size <= best.outcome.arena_size:
            kept.discard(k)
            best = trial
    ops = ", ".join(map(str, sorted(kept)))
    return best._replace(convolution_note=(
        f"convolution{'s' * (len(kept) > 1)} {ops} on tinyaot_conv2d_s8 instead of arm_convolve_s8, whose scratch "
        f"would raise the arena: {best.outcome.arena_size} bytes instead of {planned.outcome.arena_size} "
        f"(--cmsis-nn-conv im2col keeps CMSIS-NN's)"))


def _arena_candidates(graph, options):
    """CONV_2D operators cmsis_nn.arena_candidate names that CMSIS-NN would run with a scratch buffer."""
    found = []
    for op in graph.operators:
        if op.type != "CONV_2D":
            continue
        ctx = _context(graph, op, options)
        portable = LOWERINGS["CONV_2D"](ctx)
        if not cmsis_nn.arena_candidate(ctx, portable, options.cpu):
            continue
        calls, reason = cmsis_nn.lower(ctx, portable, options.cpu, options.cmsis_nn_1x1 == "im2col",
                                       options.cmsis_nn_1x1 == "auto")
        if reason is None and any(c.scratch for c in calls):
            found.append(op.index)
    return found


def _smaller_pointwise_plan(graph, views, options, fusions):
    """_lower_and_plan; with CMSIS-NN on a core without DSP, also with the 1x1 convolutions on
    arm_convolve_s8, whose output may overlap its input, kept where the arena comes out smaller
    (it costs a few percent more instructions: the wrapper's 1x1 kernels stay otherwise; a 1x1
    convolution the portable kernel takes there, backends/cmsis_nn.py PORTABLE_ON_SCALAR, needs neither). On DSP
    cores it costs 9% (DS-CNN and MobileNetV1 on the M4, more than TFLM with CMSIS-NN): there the
    1x1 kernels stay, with a note of the arena --cmsis-nn-1x1 im2col would give."""
    planned = _lower_and_plan(graph, views, options, fusions)
    if options.cmsis_nn_1x1 != "auto" or options.kernels != "cmsis-nn" or not any(
            c.args[-1] in ("arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8") for _, calls in planned.calls
            for c in calls if c.kernel == "tinyaot_cmsis_conv_s8"):
        return planned
    im2col = _lower_and_plan(graph, views, replace(options, cmsis_nn_1x1="im2col"), fusions)
    if im2col.outcome.arena_size >= planned.outcome.arena_size:
        return planned
    if CPU_ARCH[options.cpu] != "scalar":
        return planned._replace(pointwise_note=(
            f"arena {planned.outcome.arena_size} bytes: arm_convolve_1x1_s8[_fast]'s output cannot overlap its "
            f"input; --cmsis-nn-1x1 im2col (arm_convolve_s8, whose output may) gives {im2col.outcome.arena_size} "
            f"bytes for about 9% more instructions on this DSP core"))
    return im2col._replace(pointwise_note=(
        f"1x1 convolutions on arm_convolve_s8 (im2col), whose output may overlap its input, instead of "
        f"arm_convolve_1x1_s8[_fast]: arena {im2col.outcome.arena_size} bytes instead of {planned.outcome.arena_size}"))


def _lower_and_plan(graph, views, options, fusions):
    """Lowers every operator (with these fusions), plans the arena and verifies the plan."""
    lowered = lower_all(graph, views, options, fusions)
    calls = [(op, op_calls) for op, op_calls, _ in lowered]
    backends = {op.index: backend for op, _, backend in lowered}
    scratch = {op.index: [s for c in op_calls for s in c.scratch] for op, op_calls in calls}
    # A declaration speaks for its own call only: with several calls, another may read the input later.
    overlaps = {op.index: op_calls[0].overlaps for op, op_calls in calls if len(op_calls) == 1 and op_calls[0].overlaps}
    buffers = arena_buffers(planning_graph(graph, fusions), views, {k: v for k, v in scratch.items() if v},
                            options.inputs_in_arena, overlaps)
    outcome = plan(buffers, options.alignment)
    verify_plan(buffers, outcome.arena_size, options.alignment, graph.source)
    return _Planned(calls, backends, buffers, outcome)


def _check_int64_alignment(graph, alignment):
    """int64 tensors in the arena or the state are int64_t, which C aligns to 8 bytes (UBSan
    checks it on the host): an alignment below 8 is refused for a model that has them."""
    wide = next((t for t in graph.tensors if t.dtype == "int64" and not t.is_constant), None)
    if wide is not None and alignment < 8:
        raise TinyAotError(f"alignment {alignment} is below 8, the alignment of int64 tensors",
                           file=graph.source, tensor=wide.name)


def check_options(options):
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", options.name):
        raise TinyAotError(f"model name '{options.name}' must be a lower-case C identifier ([a-z_][a-z0-9_]*)")
    a = options.alignment
    if a < 1 or a & (a - 1) or a > 4096:
        raise TinyAotError(f"alignment {a} must be a power of two between 1 and 4096")
    if options.alignment < 4:
        raise TinyAotError(f"alignment {a} is below 4, the alignment of int32 tensors")
    if options.kernels not in KERNEL_BACKENDS:
        raise TinyAotError(f"kernels '{options.kernels}' is not a backend (have: {', '.join(KERNEL_BACKENDS)})")
    if options.weights not in WEIGHTS_MODES:
        raise TinyAotError(f"weights '{options.weights}' is not a mode (have: {', '.join(WEIGHTS_MODES)})")
    if options.arena_group is not None and not re.fullmatch(r"[a-z_][a-z0-9_]*", options.arena_group):
        raise TinyAotError(f"arena group '{options.arena_group}' must be a lower-case C identifier ([a-z_][a-z0-9_]*)")
    if options.cmsis_nn_1x1 not in CMSIS_NN_1X1:
        raise TinyAotError(f"cmsis-nn 1x1 '{options.cmsis_nn_1x1}' is not a choice (have: {', '.join(CMSIS_NN_1X1)})")
    if options.cmsis_nn_conv not in CMSIS_NN_CONV:
        raise TinyAotError(f"cmsis-nn conv '{options.cmsis_nn_conv}' is not a choice (have: {', '.join(CMSIS_NN_CONV)})")
    if options.cmsis_nn_lstm not in CMSIS_NN_LSTM:
        raise TinyAotError(f"cmsis-nn lstm '{options.cmsis_nn_lstm}' is not a choice (have: {', '.join(CMSIS_NN_LSTM)})")
    if options.optimize not in OPTIMIZE:
        raise TinyAotError(f"optimize '{options.optimize}' is not a choice (have: {', '.join(OPTIMIZE)})")
    if options.cpu not in CPU_ARCH:
        raise TinyAotError(f"cpu '{options.cpu}' is not supported (have: {', '.join(CPU_ARCH)})")


def _read_graph(path):
    """The model's graph. A tensor that only operators tinyaot lacks use (an LSTM's
    intermediates, say) is not what stops the model: those operators are reported instead."""
    try:
        return read_tflite(path)
    except InvalidTensorError as e:
        if not e.users or any(e.op_types[k] in SUPPORTED_OPERATORS for k in e.users):
            raise
        gaps = [unsupported_operator(e.file, k, t) for k, t in enumerate(e.op_types) if t not in SUPPORTED_OPERATORS]
        raise (gaps[0] if len(gaps) == 1 else gap_summary(e.file, len(e.op_types), gaps)) from None


def lower_all(graph, views, options, fusions):
    """[(operator, calls, backend)] for every operator (see lower_operator). What tinyaot does not support is
    collected over the whole model and reported at once, so that one run shows
    the whole gap; any other error stops at the first operator it concerns."""
    calls, gaps, first_error = [], [], None
    for op in graph.operators:
        try:
            calls.append((op, *lower_operator(graph, views, op, options, fusions)))
        except UnsupportedError as e:
            gaps.append(e)
        except TinyAotError as e:
            first_error = first_error or e
    if len(gaps) == 1:
        raise gaps[0]
    if gaps:
        raise gap_summary(graph.source, len(graph.operators), gaps)
    if first_error:
        raise first_error
    return calls


def unsupported_operator(source, op_index, op_type):
    return UnsupportedError(f"operator is not supported (supported: {', '.join(sorted(SUPPORTED_OPERATORS))})",
                            file=source, op_index=op_index, op_type=op_type)


def gap_summary(source, op_count, gaps):
    """One line: each unsupported operator type and each unsupported dtype, with counts."""
    parts = []
    missing = Counter(e.op_type for e in gaps if e.dtype is None)
    if missing:
        parts.append("operators " + ", ".join(f"{t} x{n}" for t, n in sorted(missing.items())))
    for dtype in sorted({e.dtype for e in gaps if e.dtype is not None}):
        at = [e for e in gaps if e.dtype == dtype]
        tensors = {i for e in at for i in e.dtype_tensors}
        ops = Counter(e.op_type for e in at)
        parts.append(f"{dtype} tensors: {len(tensors)} (at " + ", ".join(f"{t} x{n}" for t, n in sorted(ops.items()))
                     + f", which take {'/'.join(sorted({d for e in at for d in e.supported}))})")
    return TinyAotError(f"{len(gaps)} of {op_count} operators are not supported: "
                        f"{'; '.join(parts)} (supported operators: {', '.join(sorted(SUPPORTED_OPERATORS))})",
                        file=source)


def _context(graph, op, options):
    """op's LowerContext for the core options.cpu names."""
    return LowerContext(graph, op, optimize=options.optimize, arch=CPU_ARCH[options.cpu],
                        long_multiply=options.cpu not in NO_LONG_MULTIPLY)


def lower_operator(graph, views, op, options, fusions):
    """(kernel calls, (backend, reason it is not options.kernels or None))."""
    ctx = _context(graph, op, options)
    if op.index in views.view_ops and op.type in VIEW_OPS:
        return [], ("view", None)
    if op.type in VIEW_OPS:
        return lower_copy(ctx), ("portable", None)
    lowering = LOWERINGS.get(op.type) or INTERNAL_OPS.get(op.type)
    if lowering is None:
        raise unsupported_operator(graph.source, op.index, op.type)
    try:
        calls = lowering(ctx)  # validates the operator, whichever backend runs it
        if op.index in views.view_ops:  # a concatenation whose producers write into its output
            return [], ("view", None)
        into = next((f for f in fusions.values() if op.index in f.producers), None)
        if into is not None:
            return [], (options.kernels, f"fused: runs in bands inside operator {into.consumer} "
                                         f"({graph.operators[into.consumer].type})")
        if isinstance(fusions.get(op.index), ResidualFusion):
            return _residual_calls(graph, fusions[op.index], ctx, calls, options)
        if isinstance(fusions.get(op.index), ChainFusion):
            return _chain_calls(graph, fusions[op.index], ctx, calls, options)
        if op.index in fusions:
            f = fusions[op.index]
            producer = graph.operators[f.producer]
            conv_calls, backend = _backend_calls(_context(graph, producer, options),
                                                 LOWERINGS[producer.type], options)
            return lower_band_fc(graph, f, conv_calls, calls), (
                backend[0], f"fused: computes operator {f.producer} ({producer.type}) in bands of "
                            f"{f.rows} output row{'s' if f.rows > 1 else ''}"
                            + (f" (on portable kernels: {backend[1]})" if backend[1] else ""))
        return _backend_calls(ctx, lambda _: calls, options)
    except UnsupportedError:
        raise
    except TinyAotError as e:  # raised by shared helpers that do not know the operator
        raise e.located(file=graph.source, op_index=op.index, op_type=op.type) from None


def _residual_calls(graph, f, ctx, calls, options):
    """(calls, backend) of a fused residual block's step (passes/fusion.py ResidualFusion)."""
    lowered = [_backend_calls(_context(graph, graph.operators[k], options),
                              LOWERINGS["CONV_2D"], options, in_residual_bands=True)
               for k in f.producers]
    add_calls, add_backend = _backend_calls(ctx, lambda _: calls, options)
    backends = [b for _, b in lowered] + [add_backend]
    by_reason = {}
    for k, (_, reason) in zip((*f.producers, f.consumer), backends):
        if reason:
            by_reason.setdefault(reason, []).append(str(k))
    why = "; ".join(f"operator{'s' * (len(ks) > 1)} {', '.join(ks)}: {reason}" for reason, ks in by_reason.items())
    ops = ", ".join(map(str, f.producers[:-1])) + f" and {f.producers[-1]}"
    return lower_band_residual(graph, f, [c for c, _ in lowered], add_calls), (
        "portable" if all(b == "portable" for b, _ in backends) else options.kernels,
        f"fused: computes operators {ops} (CONV_2D) in bands of {f.rows} "
        f"output row{'s' if f.rows > 1 else ''}" + (f" (on portable kernels: {why})" if why else ""))


def _chain_calls(graph, f, ctx, calls, options):
    """(calls, backend) of a fused chain's step (passes/fusion.py ChainFusion)."""
    producer = graph.operators[f.producer]
    conv_calls, conv_backend = _backend_calls(
        _context(graph, producer, options),
        LOWERINGS[producer.type], options)
    b_calls, b_backend = _backend_calls(ctx, lambda _: calls, options)
    why = "; ".join(f"operator {k}: {reason}" for k, (_, reason) in ((f.producer, conv_backend),
                                                                     (f.consumer, b_backend)) if reason)
    return lower_band_chain(graph, f, conv_calls, b_calls), (
        "portable" if conv_backend[0] == b_backend[0] == "portable" else options.kernels,
        f"fused: computes operator {f.producer} ({producer.type}) in bands of {f.rows} "
        f"output row{'s' if f.rows > 1 else ''}" + (f" (on portable kernels: {why})" if why else ""))


def _backend_calls(ctx, lowering, options, in_residual_bands=False):
    """(calls, (backend, reason)) of a validated operator on options.kernels."""
    calls = lowering(ctx)
    if options.kernels == "cmsis-nn":
        cmsis_calls, reason = cmsis_nn.lower(ctx, calls, options.cpu, options.cmsis_nn_1x1 == "im2col",
                                              options.cmsis_nn_1x1 == "auto", in_residual_bands,
                                              ctx.op.index in options.arena_convolutions,
                                              options.cmsis_nn_lstm == "auto")
        return cmsis_calls, ("portable" if reason else "cmsis-nn", reason)
    return calls, ("portable", None)


def place_state(graph, alignment):
    """Variable tensors live outside the arena: they persist between runs."""
    offsets, size = {}, 0
    for t in graph.tensors:
        if t.is_variable:
            offsets[t.index] = size
            size += align_up(t.nbytes, alignment)
    return offsets, size
