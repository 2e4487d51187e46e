"""Code folds beyond body elision (issue 9): multi-line C macros and ``@overload`` runs."""

from __future__ import annotations

from cavemem.compressors.code import CodeCompressor
from cavemem.engine.core import Engine
from cavemem.store.ccr import open_ccr

# the shape of clang's arm_neon.h: attribute macro, function-like macros over several lines
NEON = b"""#ifndef __ARM_NEON_H
#define __ARM_NEON_H
#include <stdint.h>
#define __ai static __inline__ __attribute__((__always_inline__, __nodebug__))
#ifdef __LITTLE_ENDIAN__
#define splat_lane_s32(__p0, __p1) __extension__ ({ \\
  int32x2_t __ret; \\
  int32x2_t __s0 = __p0; \\
  __ret = (int32x2_t) __builtin_neon_splat_lane_v((int8x8_t)__s0, __p1, 2); \\
  __ret; \\
})
#else
#define splat_lane_s32(__p0, __p1) __extension__ ({ \\
  int32x2_t __ret; \\
  int32x2_t __s0 = __p0; \\
  int32x2_t __rev0;  __rev0 = __builtin_shufflevector(__s0, __s0, 1, 0); \\
  __ret = (int32x2_t) __builtin_neon_splat_lane_v((int8x8_t)__rev0, __p1, 2); \\
  __ret = __builtin_shufflevector(__ret, __ret, 1, 0); \\
  __ret; \\
})
#endif
#define vmax(a, b) ((a) > (b) ? (a) : (b))
__ai int32x2_t vadd_s32(int32x2_t __p0, int32x2_t __p1) {
  int32x2_t __ret;
  __ret = __p0 + __p1;
  return __ret;
}
#endif /* __ARM_NEON_H */
"""

# the shape of numpy's __init__.pyi: overload runs, a comment ending one, a decorator comment
STUB = b"""from typing import overload

class dtype:
    @overload
    def __new__(cls, dtype: None, align: bool = False) -> dtype[float64]: ...
    @overload  # bool
    def __new__(cls, dtype: _BoolCodes, align: bool = False) -> dtype[bool]: ...
    @overload
    def __new__(cls, dtype: _IntCodes, align: bool = False) -> dtype[int_]: ...
    @typing.overload
    def __new__(cls, dtype: _FloatCodes, align: bool = False) -> dtype[float_]: ...
    # strings that cannot be literals
    @overload
    def __new__(cls, dtype: str, align: bool = False) -> dtype[Any]: ...
    @overload
    def item(self, i: int) -> Any: ...
    @overload
    def item(self, i: tuple[int, ...]) -> Any: ...
    def tolist(self) -> list[Any]: ...
"""


def test_multiline_macro_bodies_are_elided_define_lines_stay():
    out = CodeCompressor().compress(NEON)
    assert out is not None
    text = out.decode()
    # both define lines with name and parameters stay, their bodies go
    assert text.count("#define splat_lane_s32(__p0, __p1) /* caveman: body elided */\n") == 2
    assert "__builtin_shufflevector" not in text
    # a one-line macro and the attribute macro stay whole; the function body is elided as before
    assert "#define vmax(a, b) ((a) > (b) ? (a) : (b))\n" in text
    assert "#define __ai static __inline__" in text
    assert "vadd_s32(int32x2_t __p0, int32x2_t __p1) { /* caveman: body elided */ }" in text
    assert text.count("#ifdef __LITTLE_ENDIAN__") == 1 and text.endswith("#endif /* __ARM_NEON_H */\n")


def test_macro_followed_by_code_on_its_line_is_not_elided():
    src = b"#include <stdio.h>\n#define f(a) do { \\\n  g(a); \\\n} while (0) /* trailing */\nint x;\n"
    out = CodeCompressor().compress(src)
    assert out is None or b"g(a)" in out


def test_overload_run_keeps_first_signature_and_counts_the_rest():
    out = CodeCompressor().compress(STUB)
    assert out is not None
    text = out.decode()
    assert "def __new__(cls, dtype: None, align: bool = False) -> dtype[float64]: ..." in text
    assert "    # caveman: 3 more @overload signatures of __new__ elided\n" in text
    assert "_BoolCodes" not in text and "_FloatCodes" not in text
    # the comment ends the run: what follows it stays, as do runs shorter than three
    assert "# strings that cannot be literals" in text and "dtype: str" in text
    assert text.count("def item(") == 2 and "def tolist(self)" in text


def test_folds_round_trip_through_the_engine():
    engine = Engine(store=open_ccr(":memory:"))
    try:
        for src in (STUB, NEON):
            res = engine.compress(src, type="code")
            assert res.content_type == "code" and res.tokens_after < res.tokens_before
            assert engine.retrieve(res.recovery_handle) == src
    finally:
        engine.close()


def _charmap() -> bytes:
    """The shape of CPython's encodings/cp860.py: a dict and a string table, one entry a line."""
    rows = "".join(f"    0x{i:04x}: 0x{i + 64:04x},     #  CHARACTER {i}\n" for i in range(128, 160))
    strings = "".join(f"    '\\x{i:02x}'     #  0x{i:04x} -> CONTROL {i}\n" for i in range(40))
    return (
        "import codecs\n\ndef getregentry():\n    return codecs.CodecInfo(name='cp860')\n\n"
        f"decoding_map = codecs.make_identity_dict(range(256))\ndecoding_map.update({{\n{rows}}})\n\n"
        f"decoding_table = (\n{strings})\n"
    ).encode()


def test_long_literal_tables_keep_first_and_last_rows():
    src = _charmap()
    out = CodeCompressor().compress(src)
    assert out is not None
    text = out.decode()
    assert "    # caveman: 24 table rows elided\n    0x009e: 0x00de," in text
    assert "    # caveman: 32 table rows elided\n    '\\x26'" in text
    assert "0x0085: 0x00c5," in text and "0x0086" not in text and "0x009f: 0x00df," in text
    assert "def getregentry():" in text and "decoding_map.update({" in text


def test_short_tables_and_multi_line_elements_stay():
    rows = "".join(f"    ({i},\n     {i + 1}),\n" for i in range(40))  # each element spans two lines
    src = f"import os\n\nPAIRS = [\n{rows}]\nSMALL = [\n" + "".join(f"    {i},\n" for i in range(10)) + "]\n"
    out = CodeCompressor().compress(src.encode())
    assert out is None or b"table rows elided" not in out
