"""Writes a compiled model as a self-contained folder of C (and its plan as JSON)."""

import functools
import json
import re
from importlib import resources
from pathlib import Path

import jinja2
import numpy as np

from tinyaot import __version__
from tinyaot.backends import cmsis_nn
from tinyaot.cores import CPU_ARCH, NO_LONG_MULTIPLY
from tinyaot.codegen import blob
from tinyaot.codegen.c_literals import c_array_body, c_comment, c_float, c_int, c_string, c_value
from tinyaot.codegen.identifiers import member_names
from tinyaot.codegen.kernel_signatures import parameter_name
from tinyaot.errors import TinyAotError
from tinyaot.ir import DTYPES
from tinyaot.ops.base import (BandInput, BandLoop, ParamArray, ParamStruct, ResidualLoop, ScratchRef, TensorList,
                               TensorRef)

KERNEL_DIR = resources.files("tinyaot") / "kernels"
# Per ISA level a folder of its own (kernels/README.md); headers are copied flat into the output.
KERNEL_DIRS = (KERNEL_DIR, KERNEL_DIR / "dsp", KERNEL_DIR / "mve")
_C_SIZES = {"int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8,
            "float": 4}
_NP_TYPES = {"int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16, "int32_t": np.int32,
             "uint32_t": np.uint32, "int64_t": np.int64, "float": np.float32}
ALWAYS_COPIED = ["tinyaot.h"]


def emit(model, out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ctx = _CodegenContext(model)
    values = ctx.template_values()
    name = model.options.name
    _write(out / f"{name}.h", _templates().get_template("model.h.j2").render(**values))
    _write(out / f"{name}.c", _templates().get_template("model.c.j2").render(**values))
    _write(out / f"{name}.json", json.dumps(ctx.report(), indent=2, sort_keys=True) + "\n")
    for header in ALWAYS_COPIED + kernel_headers(ctx.headers):
        _write(out / header, kernel_source(header))
    if ctx.blob:
        _write_bytes(out / f"{name}.weights.bin", ctx.blob_bytes())
    return out


def weights_blob(model):
    """(blob bytes, report) of a model compiled with weights="blob", without writing any C."""
    ctx = _CodegenContext(model)
    ctx.template_values()
    return ctx.blob_bytes(), ctx.report()


def header_text(model):
    """The model's public header <name>.h, as emit() writes it."""
    return _templates().get_template("model.h.j2").render(**_CodegenContext(model).template_values())


@functools.cache  # one a process: it compiles each template once (0.1 s of CPU an emit saved)
def _templates():
    return jinja2.Environment(
        loader=jinja2.PackageLoader("tinyaot", "codegen/templates"),
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined)


def _write(path, text):
    """Writes only when the content changes, so build tools see no new timestamps."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _write_bytes(path, data):
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def step_title(model, op):
    """The operator's type, or for a fused step both operators' (passes/fusion.py)."""
    fusion = model.fusions.get(op.index)
    if fusion is not None:
        return " + ".join(f"{model.graph.operators[k].type} {k}" for k in fusion.producers) + f" in bands + {op.type}"
    if any(op.index in f.producers for f in model.fusions.values()):
        return f"{op.type} (fused into a later step)"
    return op.type


def kernel_source(header):
    """The text of a kernel header, from whichever level's folder holds it."""
    for folder in KERNEL_DIRS:
        if (folder / header).is_file():
            return (folder / header).read_text()
    raise TinyAotError(f"internal error: no kernel header {header}")


def kernel_headers(headers):
    """The kernel headers and every tinyaot header they include, sorted (a
    library's own headers, such as CMSIS-NN's, come from its include path)."""
    todo, seen = list(headers), set()
    while todo:
        header = todo.pop()
        if header in seen:
            continue
        seen.add(header)
        for line in kernel_source(header).splitlines():
            if line.startswith('#include "tinyaot'):
                todo.append(line.split('"')[1])
    return sorted(seen - set(ALWAYS_COPIED))


class _CodegenContext:
    def __init__(self, model):
        self.model = model
        self.graph = model.graph
        self.prefix = f"tinyaot_{model.options.name}"
        self.offsets = {b.tensor: b.offset for b in model.buffers if b.tensor is not None}
        self.scratch = {}  # (step, k) -> offset
        for b in model.buffers:
            if b.tensor is None:
                _, step, k = b.name.split(":")
                self.scratch[(int(step[2:]), int(k))] = b.offset
        self.inputs = self._io_members(self.graph.inputs)
        self.outputs = self._io_members(self.graph.outputs)
        self.weights = {}  # tensor index -> symbol, in order of first use
        self.params = []  # rendered static const definitions
        self.table_bytes = {}  # symbol -> bytes of each per-channel table (folded biases, multipliers)
        self.relaid_bytes = {}  # symbol -> bytes of each weights tensor re-laid out for its kernel
        self.headers = set()
        self.instances = set()  # KernelCall.instances of every call
        self.symbols = {}  # id of a ParamStruct or ParamArray -> its C expression, once emitted
        self.struct_fields = {}  # operator index -> {symbol: fields}: what the code is specialised on
        self.blob = blob.BlobLayout() if model.options.weights == "blob" else None
        self.blob_arrays = []  # (symbol, ctype, values) of ParamArrays bound for the blob
        self.steps = [self._step(i, op, calls) for i, (op, calls) in enumerate(model.calls)]
        self.once_flags = self._guard_blocks()
        self._arch_id = None
        if self.blob is not None:
            self.headers.add("tinyaot_blob.h")
            self._lay_out_blob()

    def _guard_blocks(self):
        """Wraps each Block's steps in its condition; returns the flags of the CALL_ONCE blocks,
        which reset() leaves set: TFLM's CALL_ONCE runs its subgraph once per interpreter."""
        for step in self.steps:
            step.update(before=[], after=[], indent="")
        flags, then_of = [], set()
        for block in self.graph.blocks:
            where = f"{self.graph.operators[block.owner].type} {block.owner}: {block.kind} subgraph {block.subgraph}"
            if block.kind == "once":
                flag = f"{self.prefix}_once{len(flags)}"
                flags.append(flag)
                opening, closing = f"if (!{flag}) {{ /* {where}, first run only */", [f"    {flag} = 1;", "}"]
            elif block.kind == "then":
                then_of.add(block.owner)
                opening, closing = f"if (*{self.pointer(block.cond)}) {{ /* {where} */", ["}"]
            elif block.kind == "else":  # right after its then block, if it has one
                opening = (f"else {{ /* {where} */" if block.owner in then_of
                           else f"if (!*{self.pointer(block.cond)}) {{ /* {where} */")
                closing = ["}"]
            else:
                options = self.graph.operators[block.owner].options
                opening = (f"for (;;) {{ /* WHILE {block.owner}: cond subgraph {options['cond_subgraph_index']}, "
                           f"body subgraph {options['body_subgraph_index']} */")
                closing = ["}"]
                self.steps[block.test]["after"] += [f"    if (!*{self.pointer(block.cond)}) {{", "        break;",
                                                    "    }"]
            self.steps[block.first]["before"].append(opening)
            self.steps[block.last]["after"] += closing
            for step in self.steps[block.first:block.last + 1]:
                step["indent"] += "    "
        return flags

    def _io_members(self, indices):
        return member_names((t, self.graph.tensors[t].c_name) for t in indices)

    def _step(self, index, op, calls):
        tensors = self.graph.tensors
        ins = ", ".join(tensors[t].name for t in op.inputs if t >= 0 and not tensors[t].is_constant)
        outs = ", ".join(tensors[t].name for t in op.outputs)
        lines = []
        scratch_base = 0
        for n, call in enumerate(calls):
            suffix = f"op{op.index}" + (f"_{n}" if len(calls) > 1 else "")
            if isinstance(call, BandLoop):
                lines += self._band_loop(op, suffix, scratch_base, call)
            elif isinstance(call, ResidualLoop):
                lines += self._residual_loop(op, suffix, scratch_base, call)
            else:
                lines.append(self._call(op, suffix, scratch_base, call))
            scratch_base += len(call.scratch)
        if not calls:
            lines.append("view: shares its input's storage, no code" if op.outputs
                         else "no code of its own")
        comment = c_comment(f"{op.index}: {step_title(self.model, op)} ({ins} -> {outs})")
        checked = any(getattr(c, "checked", False) for c in calls)  # band loops: never
        return {"comment": comment, "lines": lines, "calls": bool(calls), "index": index, "checked": checked}

    def _call(self, op, suffix, scratch_base, call):
        self.headers.add(call.header_file)
        self.instances.update(call.instances)
        args = [self._arg(op, suffix, scratch_base, k, a, call.kernel) for k, a in enumerate(call.args)]
        if call.checked:
            return f"TINYAOT_RETURN_IF_ERROR({call.kernel}({', '.join(args)}));"
        return f"{call.kernel}({', '.join(args)});"

    def _band_loop(self, op, suffix, scratch_base, loop):
        """The C loop of a fused convolution (ops/base.py BandLoop); `band`, `row` and `first`
        are the names its calls use."""
        w = loop.window
        params = self._arg(op, f"{suffix}_conv", scratch_base, 0, loop.params)[1:]  # the struct, not &struct
        inner = [(f"{suffix}_{k}", c) for k, c in enumerate(loop.before + loop.body + loop.after)]
        calls = {id(c): self._call(op, name, scratch_base, c) for name, c in inner}
        lines = [f"{loop.params.ctype} band = {params};",
                 "int32_t row, first, pad_top, input_rows;",
                 *(calls[id(c)] for c in loop.before),
                 f"for (row = 0; row < {w['output_h']}; row += {loop.rows}) {{",
                 f"    band.output_h = tinyaot_band_window(row, {loop.rows}, {w['output_h']}, {w['input_h']}, "
                 f"{w['stride_h']}, {w['dilation_h']}, {w['filter_h']}, {w['pad_h']}, &first, &input_rows, "
                 "&pad_top);",
                 "    band.input_h = input_rows;  /* int16_t in CMSIS-NN calls' parameters */"]
        if "pad_h" in loop.params.fields:
            lines.append("    band.pad_h = pad_top;")
        lines += [f"    {calls[id(c)]}" for c in loop.body]
        lines += ["}", *(calls[id(c)] for c in loop.after)]
        return lines

    def _residual_loop(self, op, suffix, scratch_base, loop):
        """The C loop of a fused residual block (ops/base.py ResidualLoop, kernels/tinyaot_band_residual.h)."""
        names = ("a", "b", "s")[:len(loop.conv)]
        struct = {name: self._arg(op, f"{suffix}_conv_{name}", scratch_base, 0, params)[1:]
                  for name, (_, params, *_) in zip(names, loop.conv)}
        calls = {name: self._call(op, f"{suffix}_conv_{name}", scratch_base, c)
                 for name, (c, *_) in zip(names, loop.conv)}
        if loop.add is not None:
            struct["add"] = self._arg(op, f"{suffix}_add", scratch_base, 0, loop.add_params)[1:]
            calls["add"] = self._call(op, f"{suffix}_add", scratch_base, loop.add)
        self.headers.add("tinyaot_band_residual.h")
        h, x_h, window = loop.height, loop.input_height, self._arg(op, suffix, scratch_base, 0,
                                                                   ScratchRef(0, loop.ctype))
        t_h = loop.t_height or h
        geometry = {name: (params, filter_h, pad_h, stride) for name, (_, params, filter_h, pad_h, stride)
                    in zip(names, loop.conv)}

        def window_of(name, start, rows, first, indent):
            """tinyaot_band_window() cutting band_<name> to output rows start .. start + rows - 1."""
            params, filter_h, pad_h, stride = geometry[name]
            inputs, outputs = (t_h, h) if name == "b" else (x_h, t_h) if name == "a" else (x_h, h)
            lines = [f"{indent}band_{name}.output_h = tinyaot_band_window({start}, {rows}, {outputs}, {inputs}, {stride}, "
                     f"1, {filter_h}, {pad_h}, &{first}, &input_rows, &pad_top);",
                     f"{indent}band_{name}.input_h = input_rows;"]
            return lines + ([f"{indent}band_{name}.pad_h = pad_top;"] if "pad_h" in params.fields else [])

        # A 1-row CONV_b keeps no T row for the next band: nothing to move (and GCC's bounds check,
        # which cannot see that, would warn about the move).
        moves = geometry["b"][1] > 1
        keep = [f"    tinyaot_band_keep_rows(window, {loop.t_row * _C_SIZES[loop.ctype]}, first, &window_first, "
                "computed);"] if moves else []
        lines = [f"{geometry[name][0].ctype} band_{name} = {struct[name]};" for name in names]
        lines += [f"{loop.add_params.ctype} band_add = {struct['add']};"] if loop.add is not None else []
        lines += ["int32_t row, first, pad_top, input_rows, first_a, " + ("first_s, " if "s" in names else "")
                  + ("window_first = 0, " if moves else "") + "computed = 0;",
                  f"{loop.ctype} *const window = {window};",
                  f"for (row = 0; row < {h}; row += {loop.rows}) {{",
                  *window_of("b", "row", loop.rows, "first", "    "),
                  *keep,
                  "    if (first + band_b.input_h > computed) {",
                  *window_of("a", "computed", "first + band_b.input_h - computed", "first_a", "        "),
                  f"        {calls['a']}",
                  "        computed += band_a.output_h;",
                  "    }",
                  f"    {calls['b']}"]
        if "s" in names:
            lines += [*window_of("s", "row", loop.rows, "first_s", "    "), f"    {calls['s']}"]
        if loop.add is not None:
            lines += [f"    band_add.size = band_b.output_h * {loop.o_row};", f"    {calls['add']}"]
        return lines + ["}"]

    def _arg(self, op, suffix, scratch_base, k, arg, kernel=None):
        """The C expression for argument k of a call to `kernel`: a pointer into the arena or a
        tensor, or a table made here (named after the kernel's parameter k)."""
        if isinstance(arg, TensorRef):
            return self.pointer(arg.tensor)
        if isinstance(arg, TensorList):  # a C99 compound literal: the array lives in the step's scope
            return f"(const {arg.ctype} *const[]){{{', '.join(self.pointer(t) for t in arg.tensors)}}}"
        if isinstance(arg, BandInput):
            return f"{self.pointer(arg.tensor)} + {arg.first} * {arg.row_elements}"
        if isinstance(arg, ScratchRef):
            offset = self.scratch[(op.index, scratch_base + arg.index)]
            return f"({arg.ctype} *)({self.prefix}_arena + {offset})"
        if isinstance(arg, (ParamStruct, ParamArray)) and id(arg) in self.symbols:
            return self.symbols[id(arg)]  # one table used by several calls of a step
        if isinstance(arg, ParamStruct):
            symbol = f"{self.prefix}_{suffix}_params"
            for field, value in arg.fields.items():
                if not isinstance(value, (float, str)) and not -(2**31) <= int(value) < 2**31:
                    raise TinyAotError(f"parameter {field} = {value} does not fit in 32 bits",
                                       file=self.graph.source, op_index=op.index, op_type=op.type)
            self.struct_fields.setdefault(op.index, {})[symbol] = {k: (v if isinstance(v, str) else float(v))
                                                                   for k, v in arg.fields.items()}
            fields = ",\n".join(f"    .{k} = {c_value(v)}" for k, v in arg.fields.items())
            self.params.append(f"static const {arg.ctype} {symbol} = {{\n{fields}\n}};")
            self.symbols[id(arg)] = f"&{symbol}"
            return f"&{symbol}"
        if isinstance(arg, ParamArray):
            symbol = f"{self.prefix}_{suffix}_{parameter_name(kernel, k)}"
            self.symbols[id(arg)] = symbol
            values = np.asarray(arg.values).reshape(-1)
            (self.relaid_bytes if arg.weights else self.table_bytes)[symbol] = len(values) * _C_SIZES[arg.ctype]
            if self.blob is not None:
                self.blob_arrays.append((symbol, arg.ctype, values))
                return symbol
            self.params.append(f"static const {arg.ctype} {symbol}[{len(values)}] = {{\n"
                               f"{c_array_body(values)}\n}};")
            return symbol
        if isinstance(arg, (int, np.integer)):
            return c_int(arg)
        return str(arg)

    def pointer(self, t):
        """C expression for the address of tensor t's data."""
        r = self.model.views.root_of(t)
        tensor = self.graph.tensors[r]
        ctype = DTYPES[self.graph.tensors[t].dtype][1]
        if r in self.inputs and not self.model.options.inputs_in_arena:
            return f"in->{self.inputs[r]}"
        if r in self.outputs:
            return f"out->{self.outputs[r]}"
        if tensor.is_variable:
            return f"({ctype} *)({self.prefix}_state + {self.model.state[r]})"
        if tensor.is_constant:
            if r not in self.weights:
                self.weights[r] = f"{self.prefix}_w{r}_{tensor.c_name}"
            return self.weights[r]
        return f"({ctype} *)({self.prefix}_arena + {self.offsets[r] + self.model.views.offset_of(t)})"

    def _tensor_info(self, t, member):
        tensor = self.graph.tensors[t]
        shape = list(tensor.shape) or [1]
        # Where an input's bytes must be before the kernels run, if not in the caller's buffer.
        storage = self.pointer(t) if t in self.inputs and self.model.options.inputs_in_arena else None
        return {
            "storage": storage,
            "in_arena": storage is not None and "_arena + " in storage,
            "member": member, "name": c_string(tensor.name), "comment": c_comment(f"tensor '{tensor.name}'"),
            "ctype": tensor.ctype, "enum": DTYPES[tensor.dtype][2], "rank": len(shape),
            "shape": ", ".join(str(d) for d in shape), "size": tensor.nbytes,
            "scale": c_float(tensor.scale), "zero_point": tensor.zero_point,
        }

    def _lay_out_blob(self):
        """Weights (by tensor index), then tables (in call order), each a macro pointing into the blob."""
        self.blob_macros = []
        items = [(s, self.graph.tensors[t].ctype, self.graph.tensors[t].data) for t, s in sorted(self.weights.items())]
        for symbol, ctype, values in items + self.blob_arrays:
            offset = self.blob.add(symbol, ctype, np.asarray(values).astype(_NP_TYPES[ctype]))
            self.blob_macros.append(f"#define {symbol} ((const {ctype} *)({self.prefix}_blob + {offset}))")

    def blob_bytes(self):
        return blob.blob_bytes(self._arch_id, self.blob.payload())

    def _weights(self):
        if self.blob is not None:
            return []
        out = []
        for t, symbol in sorted(self.weights.items()):
            tensor = self.graph.tensors[t]
            out.append({"symbol": symbol, "ctype": tensor.ctype, "count": tensor.num_elements,
                        "bytes": tensor.nbytes, "name": c_comment(tensor.name),
                        "body": c_array_body(tensor.data)})
        return out

    def _state(self):
        out = []
        for t, offset in sorted(self.model.state.items()):
            tensor = self.graph.tensors[t]
            # As TFLM's ResetVariableTensors: every byte = the zero point for int8,
            # 0 otherwise; a buffer the file holds for the tensor is ignored.
            fill = tensor.zero_point if tensor.dtype == "int8" else 0
            out.append({"offset": offset, "bytes": tensor.nbytes, "fill": fill & 0xFF,
                        "name": c_comment(tensor.name)})
        return out

    def template_values(self):
        return {**self.template_values_base(), **self._blob_values()}

    def template_values_base(self):
        opts = self.model.options
        return {
            "name": opts.name, "NAME": opts.name.upper(), "prefix": self.prefix,
            "version": __version__, "source": Path(self.graph.source).name,
            "inputs": [self._tensor_info(t, m) for t, m in self.inputs.items()],
            "outputs": [self._tensor_info(t, m) for t, m in self.outputs.items()],
            "arena_size": self.model.arena_size, "lower_bound": self.model.lower_bound,
            "state_size": self.model.state_size, "state": self._state(),
            "alignment": opts.alignment, "weights_section": opts.weights_section,
            "arena_section": opts.arena_section, "inputs_in_arena": opts.inputs_in_arena,
            "arena_group": opts.arena_group,
            "kernels": kernel_headers(self.headers),
            # Guarded, so that models compiled in one translation unit define each once.
            "instances": [(re.sub(r"\W+", "_", i).strip("_").upper(), i) for i in sorted(self.instances)],
            "cmsis_nn_arch": (CPU_ARCH[opts.cpu] if cmsis_nn.HEADER in self.headers else None),
            "cpu": opts.cpu, "arch": CPU_ARCH[opts.cpu], "optimize": opts.optimize,
            "weights": self._weights(), "params": self.params, "steps": self.steps,
            "once_flags": self.once_flags, "checked": any(s["checked"] for s in self.steps),
        }

    def _blob_values(self):
        if self.blob is None:
            return {"blob": None}
        values = {"blob": {"macros": self.blob_macros, "payload_size": self.blob.size,
                           "size": blob.HEADER_SIZE + self.blob.size}}
        if self._arch_id is None:
            # The id hashes the code as rendered without the source's file name and with a zero id.
            neutral = {**self.template_values_base(), "source": "", "blob": {**values["blob"], "arch_id": "0"}}
            templates = _templates()
            text = "".join(templates.get_template(t).render(**neutral) for t in ("model.h.j2", "model.c.j2"))
            self._arch_id = blob.architecture_id(text)
        values["blob"]["arch_id"] = blob.c_bytes(self._arch_id)
        return values

    def report(self):
        m = self.model
        g = self.graph
        return {
            "name": m.options.name,
            "generator_version": __version__,
            "source": Path(g.source).name,
            "alignment": m.options.alignment,
            "inputs_in_arena": m.options.inputs_in_arena,
            "arena_group": m.options.arena_group,
            "arena_size": m.arena_size,
            "lower_bound": m.lower_bound,  # classic, of the graph as if nothing were fused
            "overlap_bound": m.plan.overlap_bound,  # of the planned (fused) graph
            "fused_lower_bound": m.plan.lower_bound,  # classic, of the planned (fused) graph
            "fusion": m.options.fusion,
            "fusions": [f.summary(g) for _, f in sorted(m.fusions.items())],
            "state_size": m.state_size,
            "notes": m.notes,
            "planner": {"strategy": m.plan.strategy, "proven_optimal": m.plan.proven_optimal},
            "plan": [{"name": b.name, "tensor": b.tensor, "offset": b.offset, "size": b.size,
                      "first_step": b.first, "last_step": b.last,
                      "may_overlap": [{"input": g.tensors[t].name, "tensor": t, "limit": d, "exact": t in b.exact}
                                      for t, d in sorted(b.overlaps.items())]} for b in m.buffers],
            "weights": {**{s: g.tensors[t].nbytes for t, s in sorted(self.weights.items())},
                        **dict(sorted(self.relaid_bytes.items()))},
            "weight_bytes": sum(g.tensors[t].nbytes for t in self.weights) + sum(self.relaid_bytes.values()),
            # Flash beside the weights: tables computed at compile time.
            "tables": dict(sorted(self.table_bytes.items())),
            "table_bytes": sum(self.table_bytes.values()),
            "kernels": m.options.kernels,
            "optimize": m.options.optimize,
            # The core, where the code depends on it: CMSIS-NN's, or the portable kernels' ISA level or
            # Armv6-M's weight layouts (no long multiply).
            "cpu": (m.options.cpu if m.options.kernels == "cmsis-nn" or CPU_ARCH[m.options.cpu] != "scalar"
                    or m.options.cpu in NO_LONG_MULTIPLY else None),
            "operators": [{"index": op.index, "type": op.type, "kernels": [c.kernel for c in calls],
                           "backend": m.backends[op.index][0], "backend_reason": m.backends[op.index][1]}
                          for op, calls in m.calls],
            "inputs": [self._io_json(t) for t in g.inputs],
            "outputs": [self._io_json(t) for t in g.outputs],
            "weights_mode": m.options.weights,
            "blob": self._blob_report(),
        }

    def _blob_report(self):
        """Where each entry lies in the blob, and what the code holds as immediate values
        (per operator: its parameter structs and its tensors' quantization), so that
        `tinyaot weights` can say what differs when another model's id does not match."""
        if self.blob is None:
            return None
        tensors = self.graph.tensors
        return {
            "arch_id": self._arch_id.hex(), "payload_size": self.blob.size,
            "size": blob.HEADER_SIZE + self.blob.size,
            "entries": {s: {"offset": o, "bytes": n} for s, _, o, n in self.blob.entries},
            "specialised": [{"index": op.index, "type": op.type, "params": self.struct_fields.get(op.index, {}),
                             "tensors": {tensors[t].name: _quant_json(tensors[t])
                                         for t in (*op.inputs, *op.outputs) if t >= 0}}
                            for op, _ in self.model.calls],
            **{kind: [(tensors[t].name, _quant_json(tensors[t])) for t in ts]
               for kind, ts in (("inputs", self.graph.inputs), ("outputs", self.graph.outputs))},
        }

    def _io_json(self, t):
        tensor = self.graph.tensors[t]
        offset = self.offsets.get(self.model.views.root_of(t)) if t in self.inputs else None
        return {"name": tensor.name, "dtype": tensor.dtype, "shape": list(tensor.shape),
                "arena_offset": offset if self.model.options.inputs_in_arena else None,
                "bytes": tensor.nbytes, "scale": float(tensor.scale), "zero_point": tensor.zero_point}


def _quant_json(tensor):
    q = tensor.quant
    if q is None:
        return None
    return {"scale": [float(x) for x in np.atleast_1d(q.scale)],
            "zero_point": [int(x) for x in np.atleast_1d(q.zero_point)]}
