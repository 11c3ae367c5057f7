"""Builds the C core (csrc/) as the cffi extension ``solver._core``; the rest
of the metadata is in pyproject.toml."""

from setuptools import setup

setup(cffi_modules=["solver/_build.py:ffibuilder"])
