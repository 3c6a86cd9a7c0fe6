"""Judging: the kernel's lines read as TAP, once, and held against a
target's expectations. Nothing here boots or knows a target's kind.

  tap           the one reader of the kernel's TAP (TapReader) and its
                verdict, as strict as Perl's TAP::Parser
  patterns      the patterns the host matches in the kernel's lines
  judge         a boot's lines, written out annotated, each result held
                against the expectations (Judge)
  ending        how a boot ended (Ending), and the verdict from that and
                its TAP
  outcome       how one boot ended, as a run reports it (Outcome)
  expectations  tests/expect/TARGET, read
  globs         the kernel's glob, for expectations and --only
  xmltext       text fit for XML and HTML, capped
"""
