// The one call of js-nextgen-psd2 1.0.0 (it ships no types): what library-client.ts uses.
declare module 'js-nextgen-psd2' {
  class PSD2Client {
    constructor(signingCertificate: Buffer, signingKey: Buffer, options?: { sslCertificate?: Buffer; sslKey?: Buffer; timeout?: number });
    send(
      method: string,
      url: string,
      headers?: Record<string, string>,
      body?: object,
    ): Promise<{ request: string; status: number; headers: Record<string, string>; body: unknown }>;
  }
  export = PSD2Client;
}
