"""Where the checkout is: the directory that holds this package (and Package.swift, .build, .tmp)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
