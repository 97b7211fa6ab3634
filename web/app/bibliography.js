// BibTeX entries for the works the calculator cites. A result's citation reads "Kairouz, Oh,
// Viswanath 2015, Thm 3.5" (several joined by "; "); its authors and year find the entry here. A
// citation not listed still gets a @misc entry holding its text, so nothing shown is left out.
const entries = {
  'Dwork & Roth 2014': `@article{dwork2014algorithmic,
  author = {Dwork, Cynthia and Roth, Aaron},
  title = {The Algorithmic Foundations of Differential Privacy},
  journal = {Foundations and Trends in Theoretical Computer Science},
  volume = {9}, number = {3--4}, pages = {211--407}, year = {2014},
  doi = {10.1561/0400000042}
}`,
  'Dwork, McSherry, Nissim, Smith 2006': `@inproceedings{dwork2006calibrating,
  author = {Dwork, Cynthia and McSherry, Frank and Nissim, Kobbi and Smith, Adam},
  title = {Calibrating Noise to Sensitivity in Private Data Analysis},
  booktitle = {Theory of Cryptography Conference (TCC)}, pages = {265--284}, year = {2006},
  doi = {10.1007/11681878_14}
}`,
  'Dwork, Rothblum, Vadhan 2010': `@inproceedings{dwork2010boosting,
  author = {Dwork, Cynthia and Rothblum, Guy N. and Vadhan, Salil},
  title = {Boosting and Differential Privacy},
  booktitle = {IEEE Symposium on Foundations of Computer Science (FOCS)}, pages = {51--60}, year = {2010},
  doi = {10.1109/FOCS.2010.12}
}`,
  'Kairouz, Oh, Viswanath 2015': `@inproceedings{kairouz2015composition,
  author = {Kairouz, Peter and Oh, Sewoong and Viswanath, Pramod},
  title = {The Composition Theorem for Differential Privacy},
  booktitle = {International Conference on Machine Learning (ICML)}, pages = {1376--1385}, year = {2015}
}`,
  'McSherry 2009': `@inproceedings{mcsherry2009privacy,
  author = {McSherry, Frank},
  title = {Privacy Integrated Queries: An Extensible Platform for Privacy-Preserving Data Analysis},
  booktitle = {ACM SIGMOD International Conference on Management of Data}, pages = {19--30}, year = {2009},
  doi = {10.1145/1559845.1559850}
}`,
  'Vadhan 2017': `@incollection{vadhan2017complexity,
  author = {Vadhan, Salil},
  title = {The Complexity of Differential Privacy},
  booktitle = {Tutorials on the Foundations of Cryptography}, publisher = {Springer}, pages = {347--450}, year = {2017},
  doi = {10.1007/978-3-319-57048-8_7}
}`,
  'Bun & Steinke 2016': `@inproceedings{bun2016concentrated,
  author = {Bun, Mark and Steinke, Thomas},
  title = {Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds},
  booktitle = {Theory of Cryptography Conference (TCC)}, pages = {635--658}, year = {2016},
  doi = {10.1007/978-3-662-53641-4_24}
}`,
  'Mironov 2017': `@inproceedings{mironov2017renyi,
  author = {Mironov, Ilya},
  title = {R{\\'e}nyi Differential Privacy},
  booktitle = {IEEE Computer Security Foundations Symposium (CSF)}, pages = {263--275}, year = {2017},
  doi = {10.1109/CSF.2017.11}
}`,
  'Mironov, Talwar, Zhang 2019': `@misc{mironov2019renyi,
  author = {Mironov, Ilya and Talwar, Kunal and Zhang, Li},
  title = {R{\\'e}nyi Differential Privacy of the Sampled Gaussian Mechanism},
  year = {2019}, eprint = {1908.10530}, archivePrefix = {arXiv}
}`,
  'Balle & Wang 2018': `@inproceedings{balle2018improving,
  author = {Balle, Borja and Wang, Yu-Xiang},
  title = {Improving the Gaussian Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising},
  booktitle = {International Conference on Machine Learning (ICML)}, pages = {394--403}, year = {2018}
}`,
  'Canonne, Kamath, Steinke 2020': `@inproceedings{canonne2020discrete,
  author = {Canonne, Cl{\\'e}ment L. and Kamath, Gautam and Steinke, Thomas},
  title = {The Discrete Gaussian for Differential Privacy},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)}, year = {2020}
}`,
  'Balle, Barthe, Gaboardi, Hsu, Sato 2020': `@inproceedings{balle2020hypothesis,
  author = {Balle, Borja and Barthe, Gilles and Gaboardi, Marco and Hsu, Justin and Sato, Tetsuya},
  title = {Hypothesis Testing Interpretations and {R}{\\'e}nyi Differential Privacy},
  booktitle = {International Conference on Artificial Intelligence and Statistics (AISTATS)}, pages = {2496--2506}, year = {2020}
}`,
  'Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022': `@article{doroshenko2022connect,
  author = {Doroshenko, Vadym and Ghazi, Badih and Kamath, Pritish and Kumar, Ravi and Manurangsi, Pasin},
  title = {Connect the Dots: Tighter Discrete Approximations of Privacy Loss Distributions},
  journal = {Proceedings on Privacy Enhancing Technologies}, volume = {2022}, number = {4}, pages = {552--570}, year = {2022},
  doi = {10.56553/popets-2022-0122}
}`,
  'Koskela, Jalko, Honkela 2020': `@inproceedings{koskela2020computing,
  author = {Koskela, Antti and J{\\"a}lk{\\"o}, Joonas and Honkela, Antti},
  title = {Computing Tight Differential Privacy Guarantees Using {FFT}},
  booktitle = {International Conference on Artificial Intelligence and Statistics (AISTATS)}, pages = {2560--2569}, year = {2020}
}`,
  'Abadi et al. 2016': `@inproceedings{abadi2016deep,
  author = {Abadi, Martin and Chu, Andy and Goodfellow, Ian and McMahan, H. Brendan and Mironov, Ilya and Talwar, Kunal and Zhang, Li},
  title = {Deep Learning with Differential Privacy},
  booktitle = {ACM SIGSAC Conference on Computer and Communications Security (CCS)}, pages = {308--318}, year = {2016},
  doi = {10.1145/2976749.2978318}
}`,
};

/** "Kairouz, Oh, Viswanath 2015, Thm 3.5; McSherry 2009" → ["Kairouz, Oh, Viswanath 2015", "McSherry 2009"]. */
function worksOf(citation) {
  return citation
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => /^(.*?\b(?:19|20)\d\d)\b/.exec(part)?.[1] ?? part);
}

const escapeBibtex = (text) => text.replace(/[{}\\]/g, '').replace(/[&%$#_]/g, (c) => `\\${c}`);

/** The BibTeX of every work cited in `citations` (strings as results give them), each once. */
export function bibtexOf(citations) {
  const works = [...new Set(citations.flatMap(worksOf))];
  return works
    .map(
      (work, i) =>
        entries[work] ??
        `@misc{dpcalc_cited_${i + 1},
  note = {${escapeBibtex(work)}}
}`,
    )
    .join('\n\n');
}
