"""printouts"""
