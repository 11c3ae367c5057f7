"""Builds the C core (csrc/) as the cffi extension ``solver._core``; the rest
of the metadata is in pyproject.toml. cffi builds the module against the
stable ABI (Py_LIMITED_API), so the wheel is tagged abi3: one wheel for
CPython 3.11 and later."""

from setuptools import setup

setup(cffi_modules=["solver/_build.py:ffibuilder"], options={"bdist_wheel": {"py_limited_api": "cp311"}})
