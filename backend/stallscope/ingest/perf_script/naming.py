"""How one `perf script` frame line becomes folded frame names.

The rules are those of `stackcollapse-perf.pl` and inferno's `collapse-perf`, so that our folded output
is byte-compatible with theirs: offsets stripped, `[unknown]` replaced by the module's base name, argument
lists dropped (but not Go's `pkg.(*T).M` or C++'s `(anonymous namespace)`), `;` made `:`, Java's leading
`L` dropped for `java…` processes, Rust legacy names finished, and `a->b->c` chains (perf-map-agent's
unfolded inlines) split into one frame each. Three places deliberately differ, all about parsing the line
rather than naming: the module is the balanced `(...)` at the end of the line, so `(/memfd:x (deleted))`
is one module (the references cut it at the last space), the address must be hexadecimal, and a tab
separates the fields as well as a space does (`7f12<TAB>main<TAB>(/bin/app)`, as some converters and
hand-edited files write them; the references read no frame at all there).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from stallscope.ingest.model import FrameKind
from stallscope.ingest.perf_script.rust import fix_rust_legacy

UNKNOWN = "[unknown]"
_HEX_ADDRESS = re.compile(r"[0-9a-fA-F]+")
_PLAIN_FRAME = re.compile(r"\s*([0-9a-fA-F]+)[ \t](.*)[ \t]\(([^()]*)\)\s*")
_OFFSET = re.compile(r"\+0x[0-9a-fA-F]*\Z")
_VMLINUX_TAIL = re.compile(r"vmlinux[A-Za-z0-9._-]*")
_OPENERS = frozenset("<{[")
_CLOSERS = frozenset(">}])")

NamedFrame = tuple[str, FrameKind]


@dataclass(frozen=True, slots=True)
class NamingOptions:
    """Choices that change frame names themselves (annotations are the exporter's business)."""

    addrs: bool = False
    """Name unresolved frames `[module <address>]` instead of `[module]`, like `--addrs`."""


def split_frame_line(text: str) -> tuple[str, str, str] | None:
    """`  7f12 func+0x1 (/lib/x.so)` -> (`7f12`, `func+0x1`, `/lib/x.so`); None if not a frame line."""
    plain = _PLAIN_FRAME.fullmatch(text)
    if plain is not None:  # the usual shape, with no parentheses in the module
        address, func, module = plain.groups()
        return address, func.strip() or " ", module
    line = text.strip()
    if not line.endswith(")"):
        return None
    open_at = _module_start(line)
    if open_at <= 0 or line[open_at - 1] not in " \t":
        return None
    module = line[open_at + 1 : -1]
    address, func = _split_address(line[:open_at].rstrip())
    if not _HEX_ADDRESS.fullmatch(address):
        return None
    # perf prints "addr  (module)" when it has no symbol; the references name that frame " ".
    return address, func.strip() or " ", module


def _split_address(text: str) -> tuple[str, str]:
    """`7f12 func` or `7f12<TAB>func` -> (`7f12`, `func`): the address ends at the first blank."""
    space, tab = text.find(" "), text.find("\t")
    cut = min(space, tab) if space >= 0 and tab >= 0 else max(space, tab)
    return (text, "") if cut < 0 else (text[:cut], text[cut + 1 :])


def _module_start(line: str) -> int:
    """Index of the `(` that opens the module, matching the final `)` (modules can hold parens)."""
    depth = 0
    for i in range(len(line) - 1, -1, -1):
        ch = line[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return i
    # Unbalanced: fall back to the references' reading, the last space-separated word.
    return line.rfind(" (") + 1 if " (" in line else -1


def strip_offset(func: str) -> str:
    """Drop a trailing `+0x1f` symbol offset (perf >= 4.8 prints them by default)."""
    offset = _OFFSET.search(func)
    return func if offset is None else func[: offset.start()]


def is_kernel_module(module: str) -> bool:
    """`[kernel.kallsyms]`, `[nf_conntrack]`, `*.ko` or a (possibly versioned) vmlinux path."""
    if module == UNKNOWN:
        return False
    if module.startswith("[") or module.endswith(".ko"):
        return True
    at = module.rfind("vmlinux")
    return at >= 0 and _VMLINUX_TAIL.fullmatch(module, at) is not None


def is_jit_module(module: str) -> bool:
    """A perf map (`/tmp/perf-PID.map`) or a jitdump-injected `jitted-*.so`."""
    if module.startswith("/tmp/perf-") and module.endswith(".map"):
        return True
    return "/jitted-" in module and module.endswith(".so")


@functools.lru_cache(maxsize=4096)
def module_kind(module: str) -> FrameKind:
    if is_kernel_module(module):
        return FrameKind.KERNEL
    if is_jit_module(module):
        return FrameKind.JIT
    if module == UNKNOWN:
        return FrameKind.UNKNOWN
    return FrameKind.USER


def with_module_fallback(func: str, module: str, address: str, addrs: bool) -> str:
    """An unresolved `[unknown]` symbol is better named by its module's base name."""
    if func != UNKNOWN:
        return func
    if module == UNKNOWN:
        if not addrs:
            return func
        base = "unknown"
    else:
        base = module[module.rfind("/") + 1 :]
    return f"[{base} <{address}>]" if addrs else f"[{base}]"


def tidy_generic(name: str) -> str:
    """`;` would split the folded line, and argument lists only add noise: drop them at top level."""
    name = name.replace(";", ":")
    if "(" not in name:
        return name
    depth = 0
    after_dot = -1
    for i, ch in enumerate(name):
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            depth -= 1
        elif ch == "(":
            is_go_method = i == after_dot  # net/http.(*Client).Do
            if depth == 0 and not is_go_method and not name.startswith("(anonymous namespace)", i):
                return name[:i]
            depth += 1
        elif ch == ".":
            after_dot = i + 1
    return name


def tidy_java(name: str) -> str:
    """`Lorg/foo/Bar:.baz` -> `org/foo/Bar:.baz` (JVM type signatures start with `L`)."""
    if name.startswith("L") and "/" in name:
        return name[1:]
    return name


def name_frames(
    address: str, raw_func: str, module: str, *, java: bool, options: NamingOptions
) -> tuple[NamedFrame, ...]:
    """Folded names and kinds of one frame line's frames, caller first; () for skipped lines."""
    func = strip_offset(raw_func)
    if func.startswith("("):
        return ()  # the references skip these (process names in old perf output)
    func = fix_rust_legacy(func)
    kind = module_kind(module)
    named: list[NamedFrame] = []
    for part in func.split("->"):
        name = tidy_generic(with_module_fallback(part, module, address, options.addrs))
        if java:
            name = tidy_java(name)
        named.append((name, kind if not named else FrameKind.INLINE))
    return tuple(named)


def is_java_comm(comm: str) -> bool:
    """The Java tidy-up applies to processes whose name starts with `java` (as both references do)."""
    return comm.startswith("java")
