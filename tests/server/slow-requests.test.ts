import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers/app'

/**
 * A request whose body never completes (issue 19): the server answers 408 and closes the
 * connection once the request timeout has passed, instead of holding it open for ever. Not a
 * database matter: one database is enough.
 */
describe('a request that never arrives whole', () => {
  let t: TestApp
  let port: number
  beforeAll(async () => {
    t = await testApp('pglite', { requestTimeoutMs: 1_000 })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as { port: number }).port
  })
  afterAll(async () => t?.close())

  it('is answered 408 and its connection closed', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        // Promises 100 bytes, sends 10, then nothing more.
        socket.write('POST /user/api/v1/user/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"a')
      })
      let received = ''
      socket.on('data', (chunk) => (received += chunk.toString()))
      socket.on('close', () => resolve(received))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })
})
