"""Quick-reference sheets: PDF through reportlab and HTML, from the same Jinja2 templates."""
