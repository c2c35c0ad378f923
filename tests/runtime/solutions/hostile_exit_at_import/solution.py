"""Hostile: ends the whole process at import, before any probe can answer."""
import os

os._exit(0)
