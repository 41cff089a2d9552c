"""The application: table config, the session loop, controllers, screens, journal and CLI."""
