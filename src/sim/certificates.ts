// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { X509Certificate as NodeX509Certificate, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface SimulatorPki {
  /** The CA a client trusts (NODE_EXTRA_CA_CERTS, or an explicit CA for in-process clients). */
  caPem: string;
  serverCertificatePem: string;
  serverPrivateKeyPem: string;
}

export interface ClientCertificate {
  certificatePem: string;
  privateKeyPem: string;
  thumbprintSha256: string;
  /** What Entra stores for a certificate credential: the public key that verifies client assertions. */
  publicKeyPem: string;
}

const ECDSA: webcrypto.EcKeyGenParams & webcrypto.EcdsaParams = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const RSA: webcrypto.RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
const DAY_MS = 86_400_000;

/**
 * A fresh CA and a server certificate for the loopback names, made at every start so no private
 * key is ever committed. The CA is constrained to issuing (pathLen 0), the leaf to TLS servers.
 */
export async function createSimulatorPki(
  hostnames: readonly string[] = ['localhost', '127.0.0.1', '::1'],
  /** Another CA name, for a second service trusted beside the simulator's: two CAs of one name confuse certificate path building. */
  caName = 'CN=Device Management Health simulator CA, O=Device Management Health (demo)',
): Promise<SimulatorPki> {
  const notBefore = new Date(Date.now() - 60_000);
  // 397 days, the longest a public TLS certificate was allowed: a demo server left running for
  // weeks stays trusted, and so does one whose clock reads another day than its clients' TLS
  // (the suite's clock shift, CONTRIBUTING.md).
  const notAfter = new Date(Date.now() + 397 * DAY_MS);
  const caKeys = await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: caName,
    notBefore,
    notAfter,
    keys: caKeys as CryptoKeyPair,
    signingAlgorithm: ECDSA,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const serverKeys = await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: 'CN=localhost',
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey as CryptoKey,
    signingKey: caKeys.privateKey as CryptoKey,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.SubjectAlternativeNameExtension(hostnames.map((name) => (/^[\d.]+$|:/.test(name) ? { type: 'ip' as const, value: name } : { type: 'dns' as const, value: name }))),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return {
    caPem: ca.toString('pem'),
    serverCertificatePem: server.toString('pem'),
    serverPrivateKeyPem: await exportPrivateKeyPem(serverKeys.privateKey as CryptoKey),
  };
}

/** A self-signed RSA certificate an application registration can use as its credential. */
export async function createClientCertificate(commonName: string): Promise<ClientCertificate> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 365 * DAY_MS),
    keys,
    signingAlgorithm: RSA,
  });
  const certificatePem = certificate.toString('pem');
  const nodeCertificate = new NodeX509Certificate(certificatePem);
  return {
    certificatePem,
    privateKeyPem: await exportPrivateKeyPem(keys.privateKey),
    thumbprintSha256: nodeCertificate.fingerprint256.replaceAll(':', '').toLowerCase(),
    publicKeyPem: nodeCertificate.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

async function exportPrivateKeyPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

function randomSerial(): string {
  // A positive 64-bit serial: the top bit clear so DER does not read it as negative.
  const bytes = webcrypto.getRandomValues(new Uint8Array(8));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
