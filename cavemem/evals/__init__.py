"""The evals harness: graded fixtures that gate compression quality (spec engine-core §8).

``manifest`` parses ``manifest.yaml``; ``runner`` confines and runs a fixture directory through
one engine; ``graders`` and ``probes`` judge each output; ``report`` renders the JSON report and
the human table; ``cli`` holds both command-line forms.
"""
