"""A big Perl module is outlined by line shape, not parsed: the Perl grammar reads ~30 KB/s, so a
217 KB module (``B/Deparse.pm``) missed the parse deadline and passed through whole."""

from __future__ import annotations

from cavemem.compressors.code import PERL_OUTLINE_BYTES, CodeCompressor, _perl_module


def _module(subs: int) -> bytes:
    head = b"# Demo::Big.pm\npackage Demo::Big;\nuse strict;\nuse warnings;\n\nour $VERSION = '1.0';\n\n"
    body = b"".join(b"sub helper_%d {\n    my ($self, %%args) = @_;\n    my $x = $args{n} // %d;\n    for my $i (1 .. $x) {\n"
                    b"        $self->{seen}{$i}++;\n    }\n    return $self->{seen};\n}\n\n" % (i, i) for i in range(subs))
    return head + body + b"1;\n__END__\n\n=head1 NAME\n\nDemo::Big - a demo\n\n=cut\n"


def test_a_big_perl_module_keeps_every_sub_head_and_elides_bodies():
    data = _module(700)
    assert len(data) >= PERL_OUTLINE_BYTES and _perl_module(data)
    out = CodeCompressor().compress(data)
    assert out is not None and len(out) < len(data) // 2
    assert out.count(b"\nsub helper_") == 700 and b"package Demo::Big;" in out
    assert b"# caveman: 6 lines elided" in out  # each body, as one Perl comment line


def test_prose_and_small_modules_are_not_taken_for_big_perl():
    assert not _perl_module(b"The package arrived. We use strict rules here.\n" * 2000)
    small = _module(3)
    assert len(small) < PERL_OUTLINE_BYTES  # small modules still go to the grammar
