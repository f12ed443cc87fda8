"""Frame naming rules, each checked on its own (the corpus tests check them together)."""

from __future__ import annotations

import pytest

from stallscope.ingest.model import FrameKind
from stallscope.ingest.perf_script.naming import (
    NamingOptions,
    is_jit_module,
    is_kernel_module,
    module_kind,
    name_frames,
    split_frame_line,
    strip_offset,
    tidy_generic,
    tidy_java,
    with_module_fallback,
)
from stallscope.ingest.perf_script.rust import fix_rust_legacy


@pytest.mark.parametrize(
    ("line", "parts"),
    [
        ("\t    1172 leaf_hash+0x19 (/opt/deeprec)", ("1172", "leaf_hash+0x19", "/opt/deeprec")),
        (
            "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])",
            ("ffffffff8103d0ca", "native_write_msr_safe", "[kernel.kallsyms]"),
        ),
        ("  7f1e2215d058  (/lib/libc-2.15.so)", ("7f1e2215d058", " ", "/lib/libc-2.15.so")),
        (
            "  1fe40 [unknown] (/memfd:sealed-9 (deleted))",
            ("1fe40", "[unknown]", "/memfd:sealed-9 (deleted)"),
        ),
        (
            "  dd777 v8::Call(v8::Isolate*, int) (/tmp/node)",
            ("dd777", "v8::Call(v8::Isolate*, int)", "/tmp/node"),
        ),
        (
            "  7f72 Lorg/Foo;.call(Lorg/mozilla/C (/tmp/perf-1.map)",
            ("7f72", "Lorg/Foo;.call(Lorg/mozilla/C", "/tmp/perf-1.map"),
        ),
        ("  7f443cc8af43 __mmap64 (inlined)", ("7f443cc8af43", "__mmap64", "inlined")),
    ],
)
def test_split_frame_line(line: str, parts: tuple[str, str, str]) -> None:
    assert split_frame_line(line) == parts


@pytest.mark.parametrize(
    "line", ["THIS_IS_A_WEIRD_LINE", "", "  401b97 main+0x1f", "  main (/x)", "comm=cc1 pid=1 (x)"]
)
def test_split_frame_line_refuses_non_frames(line: str) -> None:
    assert split_frame_line(line) is None


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("main+0x9b", "main"),
        ("cpu_startup_entry+0x800047c022ec", "cpu_startup_entry"),
        ("f+0xAB", "f"),
        ("f+0x", "f"),
        ("f+0xzz", "f+0xzz"),
        ("a+0x1+0x2", "a+0x1"),
        ("plain", "plain"),
    ],
)
def test_strip_offset(raw: str, name: str) -> None:
    assert strip_offset(raw) == name


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("StealTask::do_it(GCTaskManager*, unsigned int)", "StealTask::do_it"),
        ("net/http.(*Client).Do", "net/http.(*Client).Do"),
        ("(anonymous namespace)::worker()", "(anonymous namespace)::worker"),
        ("std::function<void (int)>::operator()(int) const", "std::function<void (int)>::operator"),
        ("{lambda(int)#1}::operator()", "{lambda(int)#1}::operator"),
        ("a;b", "a:b"),
        ("RegExp:[&<>\\\"\\'] ", "RegExp:[&<>\\\"\\'] "),  # quotes are kept, unlike the Perl tool
        ("no_parens", "no_parens"),
    ],
)
def test_tidy_generic(raw: str, name: str) -> None:
    assert tidy_generic(raw) == name


def test_tidy_java() -> None:
    assert tidy_java("Lorg/mozilla/javascript/MemberBox:.init") == "org/mozilla/javascript/MemberBox:.init"
    assert tidy_java("Lnot_a_type") == "Lnot_a_type"
    assert tidy_java("Interpreter") == "Interpreter"


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("std::sys::unix::fs::File::open::hb90e1c1c787080f0", "std::sys::unix::fs::File::open"),
        (
            "_$LT$std..fs..ReadDir$u20$as$u20$core..iter..Iterator$GT$::next::hc14f1750ca79129b",
            "<std::fs::ReadDir as core::iter::Iterator>::next",
        ),
        ("rg::search::_$u7b$$u7b$closure$u7d$$u7d$::h6e849b55a66fcd85", "rg::search::_{{closure}}"),
        ("a$ZZ$b::h6e849b55a66fcd85", "a$ZZ$b"),  # unknown escape: the rest is kept as is
        (
            "_ZN3std2rt19lang_start_internal17h540c897fe52ba9c5E",
            "_ZN3std2rt19lang_start_internal17h540c897fe52ba9c5E",
        ),
        ("<alloc::raw_vec::RawVec<T, A>>::reserve", "<alloc::raw_vec::RawVec<T, A>>::reserve"),
    ],
)
def test_fix_rust_legacy(raw: str, name: str) -> None:
    assert fix_rust_legacy(raw) == name


@pytest.mark.parametrize(
    ("module", "kind"),
    [
        ("[kernel.kallsyms]", FrameKind.KERNEL),
        ("[nf_conntrack_ipv4]", FrameKind.KERNEL),
        ("/lib/modules/5.4/kernel/drivers/net/mlx5_core.ko", FrameKind.KERNEL),
        ("/lib/modules/4.3.0-rc1-virtual/build/vmlinux", FrameKind.KERNEL),
        ("/usr/lib/debug/boot/vmlinux-5.4.14-cloudflare-2020.1.11", FrameKind.KERNEL),
        ("bpf_prog_2b956549c660136a_uni_l4lb", FrameKind.USER),
        ("[unknown]", FrameKind.UNKNOWN),
        ("/tmp/perf-19982.map", FrameKind.JIT),
        ("/tmp/jitted-31714-4145673320.so", FrameKind.JIT),
        ("/usr/lib/libc.so.6", FrameKind.USER),
    ],
)
def test_module_kind(module: str, kind: FrameKind) -> None:
    assert module_kind(module) is kind
    assert is_kernel_module(module) == (kind is FrameKind.KERNEL)
    assert is_jit_module(module) == (kind is FrameKind.JIT)


@pytest.mark.parametrize(
    ("func", "module", "addrs", "name"),
    [
        ("[unknown]", "/usr/lib/libc.so.6", False, "[libc.so.6]"),
        ("[unknown]", "/usr/lib/libc.so.6", True, "[libc.so.6 <7f12>]"),
        ("[unknown]", "[unknown]", False, "[unknown]"),
        ("[unknown]", "[unknown]", True, "[unknown <7f12>]"),
        ("[unknown]", "[kernel.kallsyms]", False, "[[kernel.kallsyms]]"),
        ("main", "/usr/bin/x", True, "main"),
    ],
)
def test_module_fallback(func: str, module: str, addrs: bool, name: str) -> None:
    assert with_module_fallback(func, module, "7f12", addrs) == name


def test_inline_chain_is_split_caller_first() -> None:
    named = name_frames(
        "7f89",
        "Ljava/io/PrintStream;::println->Ljava/io/PrintStream;::print+0x0",
        "/tmp/perf-10487.map",
        java=True,
        options=NamingOptions(),
    )
    assert named == (
        ("java/io/PrintStream:::println", FrameKind.JIT),
        ("java/io/PrintStream:::print", FrameKind.INLINE),
    )


def test_process_name_frames_are_skipped() -> None:
    assert name_frames("0", "(/usr/bin/x)", "/usr/bin/x", java=False, options=NamingOptions()) == ()
