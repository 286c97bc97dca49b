project = 'An RST manual'
author = 'pdfpipe'
extensions = []
latex_documents = [('index', 'manual.tex', 'An RST manual', 'pdfpipe', 'manual')]
