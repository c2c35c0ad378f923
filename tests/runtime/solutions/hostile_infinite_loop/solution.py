"""Hostile: never finishes importing. The probe must end by its time budget (or be killed at its
wall-clock limit) as an aborted run."""
while True:
    pass
