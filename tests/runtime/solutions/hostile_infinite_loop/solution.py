"""Hostile: never finishes importing. The probe must be killed at its wall-clock limit."""
while True:
    pass
