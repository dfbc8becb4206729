import { AsnArray, AsnConvert, AsnProp, AsnPropTypes, AsnType, AsnTypeTypes } from '@peculiar/asn1-schema';
import { id_pe_qcStatements, QCStatement, QCStatements } from '@peculiar/asn1-x509-qualified';
import { Certificate } from '@peculiar/asn1-x509';
import { Extension } from '@peculiar/x509';

/**
 * The PSD2 roles of ETSI TS 119 495 V1.8.1 by their names, with their object identifiers: the four
 * of PSD2, an international central bank's and public authority's (.5, .6), and the requesting and
 * responding side of a payee verification (.51, .52).
 */
export const PSD2_ROLES = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
  PSP_CB: '0.4.0.19495.1.5',
  PSP_PA: '0.4.0.19495.1.6',
  VOP_RS: '0.4.0.19495.1.51',
  VOP_VS: '0.4.0.19495.1.52',
} as const;
export type Psd2Role = keyof typeof PSD2_ROLES;

/** The roles a route declares (docs/security.md, "Who may call a route"): a TPP service's. */
export type RouteRole = 'PSP_AI' | 'PSP_PI' | 'PSP_IC' | 'VOP_RS';

/**
 * Which roles of a certificate let it call a route that declares a role (docs/tpp-identity.md,
 * "Roles"): the role itself; PSP_CB and PSP_PA any TPP service (PSD2 Art. 1(1)(e), (f) counts
 * central banks and public authorities as payment service providers, with no authorisation of a
 * competent authority); the payee checks PSP_PI too, which checks a payee before it pays. PSP_AS and
 * VOP_VS are the bank's side and call nothing.
 */
const CALLERS: Record<RouteRole, Psd2Role[]> = {
  PSP_AI: ['PSP_AI', 'PSP_CB', 'PSP_PA'],
  PSP_PI: ['PSP_PI', 'PSP_CB', 'PSP_PA'],
  PSP_IC: ['PSP_IC', 'PSP_CB', 'PSP_PA'],
  VOP_RS: ['VOP_RS', 'PSP_PI', 'PSP_CB', 'PSP_PA'],
};

export const grantsRoute = (granted: Psd2Role[], declared: RouteRole): boolean => granted.some((role) => CALLERS[declared].includes(role));

/** The roles whose certificates name no competent authority: their NCA name and ID are `NA`, which no other role's may be (ETSI TS 119 495 V1.8.1). */
export const WITHOUT_AUTHORITY: readonly Psd2Role[] = ['PSP_CB', 'PSP_PA'];
export const NO_AUTHORITY = { name: 'NA', id: 'NA' } as const;

/** ETSI TS 119 495's PSD2 QCStatement (0.4.0.19495.2), and ETSI EN 319 412-5's statements a qualified certificate carries beside it. */
const ID_PSD2_STATEMENT = '0.4.0.19495.2';
const ID_QC_COMPLIANCE = '0.4.0.1862.1.1';
const ID_QC_TYPE = '0.4.0.1862.1.6';
const QC_TYPES = { QSEAL: '0.4.0.1862.1.6.2', QWAC: '0.4.0.1862.1.6.3' } as const;
/** A seal (QSealC), which signs requests, or a website certificate (QWAC), which authenticates the connection. */
export type CertificateType = keyof typeof QC_TYPES;

/** RoleOfPSP ::= SEQUENCE { roleOfPspOid RoleOfPspOid, roleOfPspName RoleOfPspName } */
@AsnType({ type: AsnTypeTypes.Sequence })
class RoleOfPsp {
  @AsnProp({ type: AsnPropTypes.ObjectIdentifier })
  roleOfPspOid = '';

  @AsnProp({ type: AsnPropTypes.Utf8String })
  roleOfPspName = '';
}

@AsnType({ type: AsnTypeTypes.Sequence, itemType: RoleOfPsp })
class RolesOfPsp extends AsnArray<RoleOfPsp> {}

/** PSD2QcType ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName NCAName, nCAId NCAId } */
@AsnType({ type: AsnTypeTypes.Sequence })
class Psd2QcType {
  @AsnProp({ type: RolesOfPsp })
  rolesOfPsp = new RolesOfPsp();

  @AsnProp({ type: AsnPropTypes.Utf8String })
  nCAName = '';

  @AsnProp({ type: AsnPropTypes.Utf8String })
  nCAId = '';
}

/** QcType ::= SEQUENCE OF OBJECT IDENTIFIER */
@AsnType({ type: AsnTypeTypes.Sequence, itemType: AsnPropTypes.ObjectIdentifier })
class QcType extends AsnArray<string> {}

/** A QCStatement; without info the optional field is left out (the class defaults it to an empty buffer, which cannot be encoded). */
function statement(statementId: string, info?: ArrayBuffer): QCStatement {
  const made: Partial<QCStatement> = Object.assign(new QCStatement(), { statementId });
  if (info) made.statementInfo = info;
  else delete made.statementInfo;
  return made as QCStatement;
}

/** The qcStatements extension of a sandbox certificate: qualified, of its type, and the PSD2 statement with its roles and competent authority. */
export function qcStatementsExtension(type: CertificateType, roles: Psd2Role[], authority: { name: string; id: string }): Extension {
  const psd2 = Object.assign(new Psd2QcType(), {
    rolesOfPsp: new RolesOfPsp(
      roles.map((role) => Object.assign(new RoleOfPsp(), { roleOfPspOid: PSD2_ROLES[role], roleOfPspName: role })),
    ),
    nCAName: authority.name,
    nCAId: authority.id,
  });
  const statements = new QCStatements([
    statement(ID_QC_COMPLIANCE),
    statement(ID_QC_TYPE, AsnConvert.serialize(new QcType([QC_TYPES[type]]))),
    statement(ID_PSD2_STATEMENT, AsnConvert.serialize(psd2)),
  ]);
  return new Extension(id_pe_qcStatements, false, AsnConvert.serialize(statements));
}

/** What the sandbox reads of a certificate besides what Node verifies: its PSD2 roles, its qualified type, its issuer's name. */
export interface QualifiedFacts {
  roles: Psd2Role[];
  /** ETSI EN 319 412-5's QcType: a seal (QSealC) or a website certificate (QWAC); null when it states none. */
  type: CertificateType | null;
  /** The issuer's name, as parsed. */
  issuer: Certificate['tbsCertificate']['issuer'];
}

/**
 * The facts of a certificate (DER) from one parse of its ASN.1 structure: the roles its PSD2
 * statement grants, by their object identifiers (none when it has no such statement), and its
 * QcType. Null when the bytes are no certificate. A whole X509Certificate of @peculiar/x509 costs
 * twice as much, on every signed request.
 */
export function qualifiedFactsOf(der: Buffer): QualifiedFacts | null {
  let certificate: Certificate;
  try {
    certificate = AsnConvert.parse(der, Certificate);
  } catch {
    return null;
  }
  const { issuer } = certificate.tbsCertificate;
  const extension = certificate.tbsCertificate.extensions?.find(({ extnID }) => extnID === id_pe_qcStatements);
  if (!extension) return { roles: [], type: null, issuer };
  try {
    const statements = AsnConvert.parse(extension.extnValue, QCStatements);
    const info = (id: string) => statements.find(({ statementId }) => statementId === id)?.statementInfo;
    const psd2 = info(ID_PSD2_STATEMENT);
    const granted = psd2 ? AsnConvert.parse(psd2, Psd2QcType).rolesOfPsp.map(({ roleOfPspOid }) => roleOfPspOid) : [];
    const qcType = info(ID_QC_TYPE);
    const types = qcType ? [...AsnConvert.parse(qcType, QcType)] : [];
    return {
      roles: (Object.keys(PSD2_ROLES) as Psd2Role[]).filter((role) => granted.includes(PSD2_ROLES[role])),
      type: (Object.keys(QC_TYPES) as CertificateType[]).find((type) => types.includes(QC_TYPES[type])) ?? null,
      issuer,
    };
  } catch {
    return { roles: [], type: null, issuer };
  }
}
