"""Compiled kernels kept as object code, loaded with llvmlite alone: no numba import.

A fresh process that loads a kernel from numba's cache first imports numba
(some 0.3 s on this project's machines, numpy's import included), which is
most of a short count's fixed cost. Some kernels therefore also have an entry
with a plain C signature (machine integers and pointers, no Python object,
no exception): numba compiles it once (:func:`emit`), its machine code goes to
a file of this user's cache (:func:`folder`), and later processes load that
file with llvmlite's JIT linker (:func:`load`) and call it through ``ctypes``,
which releases the GIL during the call: threads count side by side.

An entry is numba's own native function (its calling convention: an ``int32``
status, a pointer to the result, a pointer for an exception, then the
arguments). Everything else of numba's module is made internal and dropped,
so the object refers to no symbol outside itself but LLVM's intrinsics (and
the destructor of numba's reference counts, which an entry never calls:
``NULL_ONLY``); one that would is refused (the callers then use numba's dispatchers, as before).
A file is named by a key over the kernels' source, numba's and llvmlite's
versions and this CPU: any change compiles afresh, never loads stale code.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping
from importlib.util import find_spec
from pathlib import Path
from typing import Any

#: The folder of the object files within the kernels' cache.
SUBFOLDER = "objects"

#: numba's runtime functions an entry reaches only with a null pointer, so never: an array made
#: on the caller's memory (``numba.carray``) has no reference count, and ``NRT_decref`` calls
#: the destructor only of a counted one. Defined in the object as doing nothing.
NULL_ONLY = ("NRT_MemInfo_call_dtor",)

_LOCK = threading.Lock()
#: The execution engines of the objects loaded in this process (they own the machine code).
_ENGINES: list[Any] = []


def folder() -> Path | None:
    """The writable folder of the object files, or None if there is none.

    Beside numba's cache of cpqueens' kernels (``kernels.jit.cache_folder``),
    found without importing numba: ``NUMBA_CACHE_DIR`` if the user set it, else
    this user's cache folder of cpqueens.
    """
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        path = Path(base) / SUBFOLDER
    else:
        from platformdirs import user_cache_dir

        path = Path(user_cache_dir("cpqueens", appauthor=False)) / "numba" / SUBFOLDER
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK | os.X_OK) else None


def key(name: str, sources: Iterable[Path]) -> str:
    """The key of ``name``'s object: its sources, numba's and llvmlite's versions, this CPU."""
    import llvmlite.binding as ll

    digest = hashlib.sha256(name.encode())
    for path in sources:
        digest.update(path.read_bytes())
    for package in ("numba", "llvmlite"):
        spec = find_spec(package)
        if spec is None or spec.origin is None:
            raise ImportError(f"{package} is not installed")
        digest.update(Path(spec.origin).with_name("_version.py").read_bytes())
    digest.update(ll.get_process_triple().encode())
    digest.update(ll.get_host_cpu_name().encode())
    digest.update(ll.get_host_cpu_features().flatten().encode())
    for setting in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES"):  # numba told to compile for another
        digest.update(f"{setting}={os.environ.get(setting)}".encode())
    return digest.hexdigest()[:24]


def emit(entries: Mapping[str, tuple[Any, Any]]) -> tuple[dict[str, str], bytes]:
    """Compile numba ``entries`` (name: (dispatcher, signature)) into one object file.

    Returns each name's symbol and the object code. Raises ValueError if the
    object would refer to a symbol outside itself (numba's runtime or the
    Python C API: an entry that allocates or raises).
    """
    import llvmlite.binding as ll

    symbols: dict[str, str] = {}
    module = None
    machine = None
    for name, (dispatcher, signature) in entries.items():
        dispatcher.compile(signature)
        compiled = dispatcher.overloads[signature.args]
        symbols[name] = compiled.fndesc.mangled_name
        machine = compiled.library._codegen._tm  # numba's JIT target: this CPU, its options
        part = ll.parse_assembly(compiled.library.get_llvm_str())
        if module is None:
            module = part
        else:
            module.link_in(part)
    if module is None or machine is None:
        raise ValueError("no entry to compile")
    for name in NULL_ONLY:
        function = next((f for f in module.functions if f.name == name), None)
        if function is not None and function.is_declaration:
            stub = ll.parse_assembly(f"define void @{name}(ptr %p) {{\n  ret void\n}}\n")
            stub.triple, stub.data_layout = module.triple, module.data_layout
            module.link_in(stub)
    keep = set(symbols.values())
    for function in module.functions:
        if not function.is_declaration and function.name not in keep:
            function.linkage = "internal"
    for variable in module.global_variables:
        if not variable.is_declaration:
            variable.linkage = "internal"
    passes = ll.create_new_module_pass_manager()
    passes.add_global_dead_code_eliminate_pass()
    passes.add_strip_dead_prototype_pass()
    passes.run(module, ll.create_pass_builder(machine, ll.create_pipeline_tuning_options(3)))
    outside = sorted(
        f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")
    )
    if outside or any(v.is_declaration for v in module.global_variables):
        raise ValueError(f"the entries refer to symbols outside their object: {outside}")
    return symbols, machine.emit_object(module)


def save(path: Path, symbols: Mapping[str, str], code: bytes) -> None:
    """Write the object file at ``path`` at once (a header line, then the code)."""
    header = {"symbols": dict(symbols), "sha256": hashlib.sha256(code).hexdigest()}
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".part") as file:
        file.write(json.dumps(header).encode() + b"\n" + code)
    os.replace(file.name, path)


def read(path: Path) -> tuple[dict[str, str], bytes] | None:
    """The symbols and the code of the object file at ``path``; None if absent or damaged."""
    try:
        data = path.read_bytes()
        head, _, code = data.partition(b"\n")
        header = json.loads(head)
        if hashlib.sha256(code).hexdigest() != header["sha256"]:
            return None
        return dict(header["symbols"]), code
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load(symbols: Mapping[str, str], code: bytes) -> dict[str, int]:
    """Link the object ``code`` into this process: each name's function address."""
    import llvmlite.binding as ll

    with _LOCK:
        ll.initialize_native_target()
        ll.initialize_native_asmprinter()
        target = ll.Target.from_triple(ll.get_process_triple())
        engine = ll.create_mcjit_compiler(
            ll.parse_assembly(""), target.create_target_machine(codemodel="jitdefault")
        )
        engine.add_object_file(ll.ObjectFileRef.from_data(code))
        engine.finalize_object()
        _ENGINES.append(engine)  # the machine code lives as long as its engine
        found = {name: engine.get_function_address(symbol) for name, symbol in symbols.items()}
    if not all(found.values()):
        raise ValueError(f"symbols missing from the object: {sorted(symbols)}")
    return found
