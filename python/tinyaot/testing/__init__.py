"""The project's own test models, built by code so that they exist on any clone."""
