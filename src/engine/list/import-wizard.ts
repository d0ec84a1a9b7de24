import { useCallback, useEffect, useRef, useState } from 'react'
import type { AnyEntity } from '../entity-api'
import { downloadRejected, previewImport, runImport, type ColumnMapping, type ImportMode, type ImportPreview, type ImportProgress, type ImportResult } from './import-api'

/**
 * The import wizard's behaviour, apart from its views: a file chosen and previewed, its
 * columns matched to fields (the server's guess, changed by the user: a field to one column
 * at most), a dry run, then the import all or nothing or in batches — each with its progress —
 * and the result. Closing or going back stops what runs (the server stops with it).
 */
export type ImportStep =
  | { kind: 'file' }
  | { kind: 'reading' }
  | { kind: 'mapping' }
  | { kind: 'running'; mode: ImportMode; progress: ImportProgress | null }
  | { kind: 'checked'; result: ImportResult }
  | { kind: 'done'; result: ImportResult }

export type ImportWizard = {
  step: ImportStep
  file: File | null
  preview: ImportPreview | null
  mapping: ColumnMapping
  /** Why the last call failed, when it did. */
  error: unknown
  /** Required fields no column is matched to. */
  unmappedRequired: string[]
  chooseFile: (file: File) => void
  setField: (column: string, field: string | null) => void
  run: (mode: ImportMode) => void
  stop: () => void
  /** Back to the mapping (after a check), or to choosing a file. */
  back: () => void
  download: () => Promise<void>
  isDownloading: boolean
}

export function useImportWizard(entity: AnyEntity, { isOpen, onImported }: { isOpen: boolean; onImported: (created: number) => void }): ImportWizard {
  const [step, setStep] = useState<ImportStep>({ kind: 'file' })
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [mapping, setMapping] = useState<ColumnMapping>({})
  const [error, setError] = useState<unknown>(null)
  const [isDownloading, setIsDownloading] = useState(false)
  const running = useRef<AbortController | null>(null)
  const imported = useRef(onImported)
  imported.current = onImported

  const stop = useCallback(() => {
    running.current?.abort()
    running.current = null
  }, [])

  // A closed dialog starts again from the file, and stops what it was doing.
  useEffect(() => {
    if (isOpen) return
    stop()
    setStep({ kind: 'file' })
    setFile(null)
    setPreview(null)
    setMapping({})
    setError(null)
  }, [isOpen, stop])
  useEffect(() => stop, [stop])

  const start = () => {
    stop()
    const controller = new AbortController()
    running.current = controller
    setError(null)
    return controller
  }
  const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError'

  const chooseFile = (chosen: File) => {
    const controller = start()
    setFile(chosen)
    setStep({ kind: 'reading' })
    previewImport(entity, chosen, controller.signal)
      .then((answer) => {
        if (controller.signal.aborted) return
        setPreview(answer)
        setMapping(answer.mapping)
        setStep({ kind: 'mapping' })
      })
      .catch((e: unknown) => {
        if (isAbort(e) || controller.signal.aborted) return
        setError(e)
        setStep({ kind: 'file' })
      })
  }

  const setField = (column: string, field: string | null) =>
    setMapping((now) => {
      // A field takes one column: choosing it for this one leaves the other without.
      const next: ColumnMapping = Object.fromEntries(Object.entries(now).map(([c, f]) => [c, field !== null && f === field ? null : f]))
      next[column] = field
      return next
    })

  const run = (mode: ImportMode) => {
    if (!file) return
    const controller = start()
    setStep({ kind: 'running', mode, progress: null })
    runImport(entity, { file, mapping, mode, signal: controller.signal, onProgress: (progress) => !controller.signal.aborted && setStep({ kind: 'running', mode, progress }) })
      .then((result) => {
        if (controller.signal.aborted) return
        running.current = null
        setStep(mode === 'dry_run' ? { kind: 'checked', result } : { kind: 'done', result })
        if (mode !== 'dry_run' && result.created > 0) imported.current(result.created)
      })
      .catch((e: unknown) => {
        if (isAbort(e) || controller.signal.aborted) return
        running.current = null
        setError(e)
        setStep({ kind: 'mapping' })
      })
  }

  const back = () => {
    const wasRunning = step.kind === 'running'
    stop()
    setError(null)
    if (step.kind === 'mapping' || step.kind === 'reading') {
      setStep({ kind: 'file' })
      setPreview(null)
      setFile(null)
    } else if (wasRunning || step.kind === 'checked' || step.kind === 'done') setStep({ kind: 'mapping' })
  }

  const download = async () => {
    const token = step.kind === 'done' ? step.result.rejected_file : undefined
    if (!token) return
    setIsDownloading(true)
    try {
      await downloadRejected(entity, token)
    } catch (e) {
      setError(e)
    } finally {
      setIsDownloading(false)
    }
  }

  const mappedFields = new Set(Object.values(mapping).filter((f): f is string => f !== null))
  const unmappedRequired = (preview?.fields ?? []).filter((f) => f.required && !mappedFields.has(f.name)).map((f) => f.label)

  return { step, file, preview, mapping, error, unmappedRequired, chooseFile, setField, run, stop, back, download, isDownloading }
}
