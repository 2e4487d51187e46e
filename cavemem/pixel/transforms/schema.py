"""Tool-schema description stripping (spec pixel-and-mem A14.6).

Once the full tool docs are rendered into the slab images, the native JSON schemas only need
their structure: prose keys are dropped, structural keys kept verbatim, and property *names*
are never touched (a property may well be called ``description``). Recursion stops at depth 20
so a pathological schema cannot exhaust the stack; deeper nodes are returned unchanged.
"""

from __future__ import annotations

MAX_DEPTH = 20
DROPPED = frozenset({"description", "title", "examples", "default", "$schema", "$id", "$comment"})
VERBATIM = frozenset(
    {
        "required", "enum", "const", "type", "$ref", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties",
        "maxProperties", "multipleOf", "uniqueItems", "pattern",
    }
)
NAMED_SUBSCHEMAS = frozenset({"properties", "patternProperties", "definitions", "$defs"})
COMPOSITION = frozenset({"oneOf", "anyOf", "allOf"})
SINGLE_SUBSCHEMA = frozenset(
    {
        "items", "additionalProperties", "not", "contains", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties", "if", "then", "else",
    }
)
STRUCTURE_KEYS = frozenset({"properties", "patternProperties", "oneOf", "anyOf", "allOf", "items", "$ref", "enum", "const"})


def strip_schema_descriptions(schema, depth: int = 0):
    """Returns ``(stripped, changed)``; non-object input comes back unchanged."""
    if not isinstance(schema, dict) or depth >= MAX_DEPTH:
        return schema, False
    out = {}
    changed = False
    for key, value in schema.items():
        if key in DROPPED or (key == "format" and isinstance(value, str) and len(value.encode("utf-8", "surrogatepass")) > 32):
            changed = True
            continue
        if key in VERBATIM:
            out[key] = value
        elif key in NAMED_SUBSCHEMAS and isinstance(value, dict):
            sub = {}
            for name, child in value.items():
                sub[name], c = strip_schema_descriptions(child, depth + 1)
                changed |= c
            out[key] = sub
        elif key in COMPOSITION and isinstance(value, list):
            items = []
            for child in value:
                s, c = strip_schema_descriptions(child, depth + 1)
                items.append(s)
                changed |= c
            out[key] = items
        elif key in SINGLE_SUBSCHEMA:
            if isinstance(value, bool):
                out[key] = value
            else:
                out[key], c = strip_schema_descriptions(value, depth + 1)
                changed |= c
        elif isinstance(value, dict):
            out[key], c = strip_schema_descriptions(value, depth + 1)
            changed |= c
        else:
            out[key] = value
    return out, changed


def schema_has_structure(schema) -> bool:
    return isinstance(schema, dict) and any(k in STRUCTURE_KEYS for k in schema)
