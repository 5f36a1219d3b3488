"""Behaviour graphs (KHR_interactivity): reader (both forms) → graph model → validator rules → interpreter.

Graphs are their own room, not a physics dialect: ``read.py`` reads the extension into ``model.py``,
``check.py`` reports the specification's rules, ``run.py`` runs a graph against a ``host.Host`` (the document
host in ``doc_host.py``, or the simulation's), with the operations in tables by domain under ``ops/``.
"""

from __future__ import annotations

from .errors import GraphError
from .load import Prepared, prepare
from .model import Graph, GraphNode, Interactivity
from .read import read_interactivity

__all__ = ["Graph", "GraphError", "GraphNode", "Interactivity", "Prepared", "prepare", "read_interactivity"]
